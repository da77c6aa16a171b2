// The profiles of DeepSpeed, Megatron-DeepSpeed and nanotron. Megatron-DeepSpeed has no defaults
// read yet but the DeepSpeed engine's gradient dtype: a run's other unstated knobs are searched
// (docs/frameworks.md).
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

using W = DefaultWhen;

// DeepSpeed's engine under ZeRO 1-3 keeps and reduces gradients in the training dtype: with no
// grad_accum_dtype in the config the accumulation dtype is the model's (fp16/bf16; fp32 only for
// bf16 without ZeRO), and communication_data_type defaults to it; ZeRO-3 reduce-scatters the
// 16-bit gradients and converts each rank's partition to fp32 afterwards (v0.6.2 asserts fp16 or
// bf16 for its reduce-scatter). Megatron-DeepSpeed with --deepspeed hands its gradients to the
// same engine.
constexpr const char* kDeepSpeedGradDtypeWhy =
    "DeepSpeed ZeRO 1-3: gradients accumulated and reduced in the training dtype "
    "(grad_accum_dtype and communication_data_type default to fp16/bf16)";
constexpr const char* kDeepSpeedGradDtypeSource =
    "deepspeed/runtime/engine.py (v0.16.0): get_data_types, communication_data_type; "
    "zero/stage3.py __avg_scatter_grads, zero/stage_1_and_2.py allreduce_bucket; v0.6.2 "
    "zero/stage3.py: reduce-scatter in float16 or bfloat16 only";

std::vector<Refusal> DeepSpeedRefusals() {
  const char* only =
      ": DeepSpeed's PipelineEngine runs TrainSchedule (1F1B) only "
      "(deepspeed/runtime/pipe/schedule.py)";
  static const std::string gpipe = std::string("schedule=gpipe") + only;
  static const std::string inter = std::string("schedule=interleaved") + only;
  static const std::string zb = std::string("schedule=zero-bubble") + only;
  static const std::string dual = std::string("schedule=dualpipe") + only;
  return {
      {KnobName(Knob::kSchedule), "gpipe", gpipe.c_str()},
      {KnobName(Knob::kSchedule), "interleaved", inter.c_str()},
      {KnobName(Knob::kSchedule), "zero-bubble", zb.c_str()},
      {KnobName(Knob::kSchedule), "dualpipe", dual.c_str()},
      {KnobName(Knob::kRecompute), "selective",
       "recompute=selective: DeepSpeed's activation checkpointing recomputes whole layers "
       "(recompute=full)"},
      {KnobName(Knob::kRecompute), "op",
       "recompute=op: DeepSpeed's activation checkpointing recomputes whole layers "
       "(recompute=full)"},
      {KnobName(Knob::kPrecision), "fp8",
       "precision=fp8: the DeepSpeed config has bf16 and fp16 only"},
      {KnobName(Knob::kDpCommDtype), "fp8",
       "dp_comm_dtype=fp8: DeepSpeed has no fp8 gradient reduction"},
  };
}

FrameworkProfile DeepSpeed() {
  FrameworkProfile p;
  p.framework = Framework::kDeepSpeed;
  p.version = "v0.16";
  p.date = "2024-11";
  p.what = "DeepSpeed's engine and its JSON config (ZeRO, PipelineEngine, AutoTP)";
  const char* pipe = "deepspeed/runtime/pipe/schedule.py: TrainSchedule";
  p.defaults = {
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways, "DeepSpeed's only pipeline schedule", pipe},
      {KnobName(Knob::kVpp), "1", W::kAlways, "DeepSpeed's only pipeline schedule", pipe},
      {KnobName(Knob::kZero), "0", W::kAlways, "DeepSpeed default: zero_optimization.stage = 0",
       "deepspeed/runtime/zero/config.py: stage = 0"},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "DeepSpeed default: no activation checkpointing",
       "deepspeed/runtime/activation_checkpointing/config.py"},
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "DeepSpeed AutoTP has no Megatron SP", "deepspeed/module_inject/auto_tp.py"},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways, "DeepSpeed has no TP overlap",
       "deepspeed/module_inject/auto_tp.py"},
      {KnobName(Knob::kOverlapEpComm), "false", W::kAlways, "DeepSpeed-MoE has no EP overlap",
       "deepspeed/moe/sharded_moe.py"},
      {KnobName(Knob::kOverlapPpComm), "false", W::kAlways,
       "DeepSpeed's pipeline sends are blocking", "deepspeed/runtime/pipe/p2p.py"},
      {KnobName(Knob::kGradReduceInFp32), "false", W::kZeroAbove0, kDeepSpeedGradDtypeWhy,
       kDeepSpeedGradDtypeSource},
      // ZeRO 1-2 reduce their gradients in buckets of reduce_bucket_size elements and gather the
      // updated partitions in allgather_bucket_size ones, both 5e8, of the 16-bit gradients and
      // weights above: 1,000 MB (the same in every release read, docs/deepspeed-defaults.md).
      {KnobName(Knob::kDpBucketMB), "1000", W::kZeroAbove0,
       "DeepSpeed default: reduce_bucket_size = allgather_bucket_size = 5e8 elements of 2 B",
       "deepspeed/runtime/zero/config.py (v0.9.5, v0.12.4, v0.16.0): reduce_bucket_size, "
       "allgather_bucket_size = 5e8; v0.6.2 zero/constants.py: 500000000"},
  };
  p.refusals = DeepSpeedRefusals();
  // ZeRO-3's parameter coordinator at the config's defaults (kernel_recipe.h; cost/zero3_fetch.h).
  p.runtime.zero3_max_live_params = kDeepSpeedMaxLiveParams;
  p.runtime.zero3_max_reuse_distance = kDeepSpeedMaxReuseDistance;
  // ZeRO-1/2 all-reduce each reduce bucket and keep their own slice (v0.12.4 on:
  // zero_optimization.use_multi_rank_bucket_allreduce defaults to true, runtime/zero/config.py;
  // stage_1_and_2.py average_tensor -> allreduce_and_scatter -> dist.all_reduce at v0.16.0).
  p.runtime.zero_bucket_all_reduce = true;
  // ZeRO-2 reduces every micro-batch's gradients, ZeRO-1 at the accumulation boundary only
  // (kernel_recipe.h, zero2_micro_batch_reduce; the same code from v0.6.2 to 2025).
  p.runtime.zero2_micro_batch_reduce = true;
  p.runtime.collectives =
      "all-reduce of gradient buckets (ZeRO-0/1/2: each rank keeps its partition's slice under "
      "ZeRO-1/2) or reduce-scatter (ZeRO-3), ZeRO-3 parameter all-gather with prefetch, blocking "
      "P2P for PP, all-to-all for MoE";
  p.export_form = ExportForm::kDeepSpeedJson;
  return p;
}

std::vector<Refusal> NanotronRefusals() {
  const char* only =
      ": nanotron's pipeline engines are all-forward-all-backward and 1F1B "
      "(src/nanotron/parallel/pipeline_parallel/engine.py)";
  static const std::string inter = std::string("schedule=interleaved") + only;
  static const std::string zb = std::string("schedule=zero-bubble") + only;
  static const std::string dual = std::string("schedule=dualpipe") + only;
  return {
      {KnobName(Knob::kSchedule), "interleaved", inter.c_str()},
      {KnobName(Knob::kSchedule), "zero-bubble", zb.c_str()},
      {KnobName(Knob::kSchedule), "dualpipe", dual.c_str()},
      {KnobName(Knob::kZero), "2",
       "zero=2: nanotron's ZeroDistributedOptimizer shards optimizer states only (ZeRO-1; "
       "src/nanotron/optim/zero.py)"},
      {KnobName(Knob::kZero), "3",
       "zero=3: nanotron's ZeroDistributedOptimizer shards optimizer states only (ZeRO-1; "
       "src/nanotron/optim/zero.py)"},
      {KnobName(Knob::kRecompute), "selective",
       "recompute=selective: nanotron's recompute_layer recomputes whole layers (recompute=full)"},
      {KnobName(Knob::kRecompute), "op",
       "recompute=op: nanotron's recompute_layer recomputes whole layers (recompute=full)"},
      {KnobName(Knob::kOverlapTpComm), "true",
       "overlap_tp_comm=true: nanotron's tp_linear_async_communication is no chunked comm-GEMM "
       "overlap; the forward all-gather hides under the local shard's GEMM only and the row "
       "linear's reduce-scatter is not overlapped "
       "(src/nanotron/parallel/tensor_parallel/functional.py)"},
  };
}

// nanotron at the commit that published the Ultra-Scale Playbook benchmarks
// (docs/benchmark_summary.svg). Every default below is the parser's "conservative default" in
// ParallelismArgs.__post_init__ or a dataclass default; zero_stage has none (a required key), so a
// run must state it or it is searched.
FrameworkProfile Nanotron() {
  FrameworkProfile p;
  p.framework = Framework::kNanotron;
  p.version = "c252843";
  p.date = "2025-03-10";
  p.what = "nanotron's YAML config (ParallelismArgs, ModelArgs) as the Ultra-Scale Playbook ran it";
  const char* par = "src/nanotron/config/parallelism_config.py: ParallelismArgs";
  p.defaults = {
      {KnobName(Knob::kSchedule), "gpipe", W::kAlways,
       "nanotron default: pp_engine None -> AllForwardAllBackwardPipelineEngine", par},
      {KnobName(Knob::kVpp), "1", W::kAlways, "nanotron has no interleaved pipeline engine",
       "src/nanotron/parallel/pipeline_parallel/engine.py"},
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "nanotron default: tp_mode None -> ALL_REDUCE (REDUCE_SCATTER is sequence parallelism)",
       par},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways,
       "nanotron default: tp_linear_async_communication None -> False", par},
      {KnobName(Knob::kRecompute), "none", W::kAlways, "nanotron default: recompute_layer = False",
       par},
      {KnobName(Knob::kPrecision), "bf16", W::kAlways,
       "nanotron default: ModelArgs.dtype None -> torch.bfloat16",
       "src/nanotron/config/config.py: ModelArgs"},
      // Data-parallel gradients. OptimizerArgs.accumulate_grad_in_fp32 has no default (a required
      // key); the Playbook sweep sets it (scripts/scaling_benchmarks.py: ACCUMULATE_GRAD_IN_FP32 =
      // True, as examples/config_tiny_llama.yaml), so gradients accumulate and are reduced from
      // FP32GradientAccumulator's fp32 buffer.
      {KnobName(Knob::kGradReduceInFp32), "true", W::kAlways,
       "nanotron (Playbook sweep): accumulate_grad_in_fp32 = True, gradients reduced in fp32",
       "src/nanotron/optim/gradient_accumulator.py: FP32GradientAccumulator; "
       "scripts/scaling_benchmarks.py: ACCUMULATE_GRAD_IN_FP32 = True"},
      {KnobName(Knob::kOverlapGradReduce), "false", W::kZeroAbove0,
       "nanotron with ZeRO-1 and fp32 accumulation builds no DDP: one all-reduce of the fp32 "
       "gradient buffer after the last backward",
       "src/nanotron/trainer.py: init_model make_ddp = dp > 1 and not (accumulate_grad_in_fp32 and "
       "zero_stage > 0); training_step -> sync_gradients_across_dp after train_batch_iter"},
      {KnobName(Knob::kOverlapGradReduce), "true", W::kZero0,
       "nanotron without ZeRO wraps the model in DDP: a comm hook all-reduces each fp32 bucket "
       "during the backward",
       "src/nanotron/helpers.py: register_comm_hook(get_fp32_accum_hook) (all_reduce_coalesced, "
       "async_op); src/nanotron/trainer.py: DistributedDataParallel(bucket_cap_mb=25)"},
      // DDP's buckets hold 25 MiB of the bf16 gradients (ModelArgs.ddp_bucket_cap_mb = 25, as the
      // sweep's examples/config_tiny_llama_bench.yaml); the fp32 hook all-reduces those
      // parameters' fp32 accumulation buffers: 2 x 25 MiB = 52.4288 MB per bucket.
      {KnobName(Knob::kDpBucketMB), "52.4288", W::kZero0,
       "nanotron's DDP: bucket_cap_mb = 25 MiB of bf16 gradients, all-reduced as fp32 buffers",
       "src/nanotron/config/config.py: ModelArgs.ddp_bucket_cap_mb = 25; src/nanotron/trainer.py: "
       "DistributedDataParallel(bucket_cap_mb=...); src/nanotron/optim/gradient_accumulator.py: "
       "get_fp32_accum_hook (all_reduce_coalesced of the fp32 buffers)"},
      {KnobName(Knob::kOverlapParamGather), "false", W::kZeroAbove0,
       "nanotron's ZeRO-1 all-gathers the updated parameters inside the optimizer step",
       "src/nanotron/optim/zero.py: ZeroDistributedOptimizer.step -> _all_gather_params "
       "(all_gather_coalesced, blocking)"},
  };
  p.refusals = NanotronRefusals();
  // ZeRO-1 with fp32 accumulation: training_step calls sync_gradients_across_dp(...,
  // reduce_scatter=False) (src/nanotron/trainer.py), which is one dist.all_reduce of
  // FP32GradientAccumulator._contiguous_fp32_grad_buffer (src/nanotron/optim/
  // gradient_accumulator.py, sync_gradients_across_dp); the optimizer then gathers the updated
  // bf16 parameters in one all_gather (src/nanotron/optim/zero.py, _all_gather_params).
  p.runtime.zero1_all_reduce = true;
  // accumulate_grad_in_fp32 (true in the sweep's base config, examples/config_tiny_llama_bench.yaml
  // on nouamane/bench2 @ 67c5ebb6): FP32GradientAccumulator.backward adds every parameter's bf16
  // gradient into the fp32 buffer after loss.backward(), one add_ per tensor and micro-batch
  // (src/nanotron/optim/gradient_accumulator.py, _accumulate_grad).
  p.runtime.fp32_grad_accum_pass = true;
  // CoreAttention calls flash-attn's flash_attn_varlen_func (FlashAttention-2;
  // src/nanotron/models/llama.py), not TransformerEngine's cuDNN attention.
  p.runtime.flash_attn2 = true;
  p.runtime.collectives =
      "all-reduce of fp32 gradients (ZeRO-0: DDP buckets in the backward; ZeRO-1: the whole "
      "buffer after it, then one all-gather of the updated parameters), TP all-reduce or "
      "all-gather/reduce-scatter (tp_mode), "
      "P2P for PP";
  return p;
}

FrameworkProfile Unread(Framework framework, const char* what) {
  FrameworkProfile p;
  p.framework = framework;
  p.version = "unread";
  p.date = "";
  p.what = what;
  return p;
}

// Megatron-DeepSpeed: its own defaults are not read yet (unstated knobs are searched), but with
// --deepspeed and ZeRO its gradients are DeepSpeed's engine's (above).
FrameworkProfile MegatronDeepSpeed() {
  FrameworkProfile p = Unread(Framework::kMegatronDeepSpeed,
                              "Megatron-DeepSpeed: no defaults read yet but the DeepSpeed engine's "
                              "gradient dtype under ZeRO (other unstated knobs are searched)");
  p.defaults = {{KnobName(Knob::kGradReduceInFp32), "false", W::kZeroAbove0, kDeepSpeedGradDtypeWhy,
                 kDeepSpeedGradDtypeSource},
                {KnobName(Knob::kDpBucketMB), "1000", W::kZeroAbove0,
                 "DeepSpeed's engine default: reduce_bucket_size = allgather_bucket_size = 5e8 "
                 "elements of 2 B",
                 "deepspeed/runtime/zero/config.py (v0.9.5, v0.12.4, v0.16.0); v0.6.2 "
                 "zero/constants.py: 500000000"}};
  p.runtime.zero3_max_live_params = kDeepSpeedMaxLiveParams;  // its ZeRO-3 is DeepSpeed's
  p.runtime.zero3_max_reuse_distance = kDeepSpeedMaxReuseDistance;
  // Its ZeRO-2 is the engine's: every micro-batch reduced, in every DeepSpeed release read
  // (v0.6.2, v0.9.5, v0.12.4, v0.16.0, 38327e0; kernel_recipe.h).
  p.runtime.zero2_micro_batch_reduce = true;
  return p;
}

}  // namespace

FrameworkProfile ScalingProfile();  // framework_profile_scaling.cpp

std::vector<FrameworkProfile> OtherFrameworkProfiles() {
  return {DeepSpeed(),
          MegatronDeepSpeed(),
          Nanotron(),
          Unread(Framework::kAutomodel,
                 "NeMo AutoModel (PyTorch FSDP2, torch pipelining, TE kernels, DeepEP): no "
                 "defaults read yet (unstated knobs are searched)"),
          ScalingProfile(),
          Unread(Framework::kOlmoCore,
                 "AI2's OLMo-core (PyTorch FSDP2/HSDP, DTensor TP/CP, torch.compile, torchao "
                 "float8): no defaults read yet (unstated knobs are searched)")};
}

}  // namespace paraplan
