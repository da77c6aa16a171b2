// The framework profiles (plan/framework_profile.h), one per framework and version. Every default
// names the file of the framework it is read from (the vendored copies in ../shared/realclients
// are Megatron-LM d98e8a6 and torchtitan 238fa99 and b5bcd76); docs/frameworks.md lists them.
// Parallel degrees (tp, pp, dp, cp, ep, etp) get no default: a source that leaves one out did not
// run the parser's 1, it left it unreported, so validate searches it.
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

using W = DefaultWhen;

// --- Megatron-LM ----------------------------------------------------------------------------

std::vector<Refusal> MegatronRefusals() {
  const char* sched =
      ": upstream Megatron-LM runs 1f1b and interleaved only "
      "(megatron/core/pipeline_parallel/schedules.py)";
  static const std::string gpipe = std::string("schedule=gpipe") + sched;
  static const std::string zb = std::string("schedule=zero-bubble") + sched;
  static const std::string dual = std::string("schedule=dualpipe") + sched;
  return {
      {KnobName(Knob::kSchedule), "gpipe", gpipe.c_str()},
      {KnobName(Knob::kSchedule), "zero-bubble", zb.c_str()},
      {KnobName(Knob::kSchedule), "dualpipe", dual.c_str()},
      {KnobName(Knob::kRecompute), "op",
       "recompute=op is torchtitan's per-op SAC; Megatron-LM has selective (core attention) "
       "and full (--recompute-granularity)"},
      {KnobName(Knob::kDpCommDtype), "fp8",
       "dp_comm_dtype=fp8: Megatron-LM has no fp8 gradient reduction"},
  };
}

// An unstated schedule: interleaved exactly when virtual stages are given, else 1F1B.
std::vector<KnobDefault> ScheduleDefaults(const char* framework_default, const char* source) {
  return {
      {KnobName(Knob::kSchedule), "interleaved", W::kVppAbove1, framework_default, source},
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways, framework_default, source},
      {KnobName(Knob::kVpp), "1", W::kNotInterleaved, framework_default, source},
  };
}

FrameworkProfile MegatronD98e8a6() {
  FrameworkProfile p;
  p.framework = Framework::kMegatron;
  p.version = "d98e8a6";
  p.date = "2026-08-22";
  p.what = "Megatron-LM's pretrain_gpt.py argument parser and validate_args at d98e8a6";
  p.defaults = ScheduleDefaults(
      "Megatron-LM default",
      "megatron/training/arguments.py: --num-layers-per-virtual-pipeline-stage unset = no "
      "interleaving");
  const std::vector<KnobDefault> rest = {
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "Megatron-LM default: --sequence-parallel unset",
       "megatron/core/model_parallel_config.py: sequence_parallel = False"},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways,
       "Megatron-LM default: --tp-comm-overlap unset",
       "megatron/core/model_parallel_config.py: tp_comm_overlap = False"},
      {KnobName(Knob::kOverlapEpComm), "false", W::kAlways,
       "Megatron-LM default: --overlap-moe-expert-parallel-comm unset",
       "megatron/core/model_parallel_config.py: overlap_moe_expert_parallel_comm = False"},
      {KnobName(Knob::kZero), "0", W::kAlways,
       "Megatron-LM default: --use-distributed-optimizer unset",
       "megatron/training/arguments.py: --use-distributed-optimizer (store_true)"},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "Megatron-LM default: --recompute-granularity unset",
       "megatron/core/transformer/transformer_config.py: recompute_granularity = None"},
      {KnobName(Knob::kOverlapGradReduce), "false", W::kAlways,
       "Megatron-LM default: --overlap-grad-reduce unset",
       "megatron/training/arguments.py: --overlap-grad-reduce default False"},
      {KnobName(Knob::kOverlapParamGather), "false", W::kAlways,
       "Megatron-LM default: --overlap-param-gather unset",
       "megatron/training/arguments.py: --overlap-param-gather default False"},
      {KnobName(Knob::kOverlapPpComm), "true", W::kInterleaved,
       "Megatron-LM default: P2P overlap unless --no-overlap-p2p-communication",
       "megatron/training/arguments.py: --no-overlap-p2p-communication (store_false)"},
      {KnobName(Knob::kOverlapPpComm), "false", W::kNotInterleaved,
       "Megatron-LM turns P2P overlap off without interleaving",
       "megatron/training/arguments.py, validate_args: overlap_p2p_comm = False"},
      {KnobName(Knob::kGradReduceInFp32), "true", W::kNotFp16,
       "Megatron-LM accumulates and reduces bf16 gradients in fp32",
       "megatron/training/arguments.py, validate_args: accumulate_allreduce_grads_in_fp32 = True "
       "for bf16"},
      {KnobName(Knob::kGradReduceInFp32), "false", W::kFp16,
       "Megatron-LM default: --accumulate-allreduce-grads-in-fp32 unset under fp16",
       "megatron/training/arguments.py: --accumulate-allreduce-grads-in-fp32 (store_true)"},
      {KnobName(Knob::kMoeRouting), "dropless", W::kAlways,
       "Megatron-LM default: no capacity factor",
       "megatron/core/transformer/transformer_config.py: moe_expert_capacity_factor = None"},
      {KnobName(Knob::kFp8Recipe), "delayed", W::kFp8,
       "Megatron-LM default: --fp8-recipe delayed (TransformerEngine's DelayedScaling)",
       "megatron/core/transformer/transformer_config.py: fp8_recipe = 'delayed'; "
       "megatron/core/fp8_utils.py: delayed -> TEDelayedScaling"},
  };
  p.defaults.insert(p.defaults.end(), rest.begin(), rest.end());
  p.refusals = MegatronRefusals();
  p.runtime.fusion_why = "TransformerEngine modules (megatron/core/models/gpt/gpt_layer_specs.py)";
  // One gradient bucket unless --overlap-grad-reduce, and on pipeline ranks after the first
  // (megatron/core/distributed/distributed_data_parallel.py, __init__: bucket_size None).
  p.runtime.megatron_ddp_buckets = true;
  // Layers per pipeline rank without a layout flag: num_layers / pp, / vpp per model chunk, the
  // embedding and loss uncounted (megatron/core/transformer/transformer_block.py,
  // get_num_layers_to_build; the same rule from core_v0.4.0 to d98e8a6).
  p.runtime.megatron_even_split = true;
  p.runtime.collectives =
      "NCCL all-gather/reduce-scatter for SP, all-reduce or reduce-scatter/all-gather for DP "
      "(distributed optimizer), all-to-all for EP, P2P send/recv for PP";
  p.export_form = ExportForm::kMegatronArgs;
  return p;
}

// NeMo Megatron 22.08 (the launcher's bignlp-training:22.08 container: NeMo v1.11.0 on apex,
// 2022-09-08), as the launcher's GPT-3 configs ran it (conf/training/gpt3/*.yaml at
// NeMo-Framework-Launcher 3579cdb: megatron_amp_O2, distributed_fused_adam). No TransformerEngine
// and no userbuffers yet: apex's fused kernels, TP collectives on the compute stream.
FrameworkProfile Nemo2208() {
  FrameworkProfile p;
  p.framework = Framework::kNemo;
  p.version = "22.08";
  p.date = "2022-09-08";
  p.what = "NeMo Megatron 22.08 (NeMo v1.11.0 on apex) as the launcher's GPT-3 configs ran it";
  const char* gpt = "nemo/collections/nlp/models/language_modeling/megatron_gpt_model.py";
  const char* conf = "examples/nlp/language_modeling/conf/megatron_gpt_config.yaml";
  p.defaults = {
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways,
       "NeMo 1.11 calls apex's forward_backward_pipelining_without_interleaving only", gpt},
      {KnobName(Knob::kVpp), "1", W::kAlways, "NeMo 1.11 has no interleaved schedule", gpt},
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "NeMo 1.11 default: sequence_parallel False", conf},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "NeMo 1.11 default: activations_checkpoint_granularity null", conf},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways,
       "NeMo 1.11 has no TP communication overlap (no ub_tp_comm_overlap, no TransformerEngine)",
       "nemo/collections/nlp/modules/common/megatron/transformer.py (apex tensor_parallel)"},
      {KnobName(Knob::kOverlapPpComm), "false", W::kAlways,
       "apex's P2P in 2022 waits on every send/recv and synchronizes the device (async_comm "
       "False)",
       "apex/transformer/pipeline_parallel/p2p_communication.py @ 21e4154: _communicate"},
      {KnobName(Knob::kOverlapGradReduce), "false", W::kPpAbove1,
       "NeMo 1.11 turns distributed Adam's overlapped grad sync off under pipeline parallelism: "
       "gradients are reduce-scattered in the optimizer step",
       "megatron_gpt_model.py, configure_optimizers: overlap_grad_sync = False"},
      {KnobName(Knob::kOverlapGradReduce), "false", W::kSequenceParallel,
       "NeMo 1.11 turns distributed Adam's overlapped grad sync off under sequence parallelism",
       "megatron_gpt_model.py, configure_optimizers: overlap_grad_sync = False"},
      {KnobName(Knob::kOverlapGradReduce), "true", W::kAlways,
       "NeMo 1.11 without PP or SP syncs gradients during the last micro-batch's backward",
       "megatron_gpt_model.py, training_step: no_sync(greedy_grad_copy=True) as "
       "custom_sync_context_handler"},
      {KnobName(Knob::kOverlapParamGather), "false", W::kAlways,
       "apex DistributedFusedAdam (2022-08) all-gathers the updated parameters inside step()",
       "apex/contrib/optimizers/distributed_fused_adam.py @ 21e4154: step"},
      {KnobName(Knob::kGradReduceInFp32), "true", W::kAlways,
       "apex DistributedFusedAdam reduces gradients in its state dtype (fp32)",
       "apex/contrib/optimizers/distributed_fused_adam.py @ 21e4154: grad_sync_dtype = dtype"},
      // apex's buckets are a fixed 100 MiB of the fp32 gradients whatever the DP size (not
      // Megatron-Core's max(40M, 1M x dp) elements): at large DP each rank's shard of a bucket
      // shrinks, and each reduce-scatter pays the ring's per-call latency over the DP group. The
      // parameter all-gathers use the same element count in bf16 (52.4 MB); paraplan's one
      // bucket size gives them 104.9 MB, half as many calls.
      {KnobName(Knob::kDpBucketMB), "104.8576", W::kAlways,
       "apex DistributedFusedAdam (2022-08): buckets of bucket_cap_mb = 100 MiB of its fp32 "
       "gradients; NeMo 1.11 and the launcher's GPT-3 configs pass none",
       "apex/contrib/optimizers/distributed_fused_adam.py @ 21e4154: bucket_cap_mb=100, "
       "bucket_size = 1024*1024*bucket_cap_mb / dtype_size; nemo/core/optim/optimizers.py @ "
       "v1.11.0 (MegatronDistributedFusedAdam); conf/training/gpt3/*.yaml @ 3579cdb (optim)"},
  };
  p.refusals = MegatronRefusals();
  static const std::string inter =
      std::string("schedule=interleaved: NeMo 1.11 runs apex's non-interleaved 1F1B only (") + gpt +
      ")";
  p.refusals.push_back({KnobName(Knob::kSchedule), "interleaved", inter.c_str()});
  p.runtime.fusion = Fusion::kApex;
  p.runtime.fusion_why =
      "apex fused kernels (persist_layer_norm, FusedScaleMaskSoftmax, jit bias-GeLU and "
      "bias-dropout-add); no TransformerEngine or FlashAttention";
  // Gradient accumulation: the launcher sets gradient_accumulation_fusion (the wgrad GEMM adds into
  // param.main_grad, a view of distributed Adam's fp32 buffer: nemo/core/optim/optimizers.py,
  // MegatronDistributedFusedAdam._init_param_state), but megatron_base_model.py's
  // _validate_config turns it off at pipeline_model_parallel_size 1. Then every parameter's bf16
  // gradient reaches DistributedFusedAdam's grad hook after each micro-batch's backward, which
  // adds it into the fp32 bucket and frees it (apex/contrib/optimizers/distributed_fused_adam.py
  // @ 21e4154: reduction_hook -> _grad_copy, grad_out.add_(grad_in); greedy_grad_copy is True,
  // and NeMo's no_sync(greedy_grad_copy=True) keeps it so).
  p.runtime.fp32_grad_accum_pass_without_pp = true;
  // Layers per pipeline rank: num_layers // pp, asserted divisible (nemo/collections/nlp/modules/
  // common/megatron/transformer.py @ v1.11.0, ParallelTransformer.get_num_layers).
  p.runtime.megatron_even_split = true;
  p.runtime.collectives =
      "TP all-gather/reduce-scatter (SP) or all-reduce on the compute stream, apex distributed "
      "Adam's fp32 reduce-scatter and bf16 parameter all-gather, P2P send/recv for PP";
  p.export_form = ExportForm::kNone;
  return p;
}

// NeMo 24.03 (NeMo 1.23 on Megatron-Core and TransformerEngine 1.4), as the launcher at its
// 24.03.01 tag configures a Llama model: launcher_scripts/conf/training/llama/llama2_7b.yaml
// (NeMo-Framework-Launcher 5c7e280a, 2024-04-19; mcore_gpt true, transformer_engine true,
// optim distributed_fused_adam). A knob the config sets is the framework's default here, not a
// value to search: the switches that came later as recipe choices (userbuffers TP overlap,
// sequence parallelism) are off in it.
FrameworkProfile Nemo2403() {
  FrameworkProfile p;
  p.framework = Framework::kNemo;
  p.version = "24.03";
  p.date = "2024-04-19";
  p.what = "NeMo 24.03 (NeMo 1.23 on Megatron-Core, TE 1.4) as the launcher's Llama configs set it";
  const char* conf =
      "launcher_scripts/conf/training/llama/llama2_7b.yaml @ NeMo-Framework-Launcher 24.03.01";
  p.defaults = ScheduleDefaults("NeMo default: virtual_pipeline_model_parallel_size null", conf);
  const std::vector<KnobDefault> rest = {
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "NeMo 24.03 launcher default: sequence_parallel false", conf},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "NeMo 24.03 launcher default: activations_checkpoint_granularity null", conf},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways,
       "NeMo 24.03 launcher default: ub_tp_comm_overlap False", conf},
      {KnobName(Knob::kZero), "1", W::kAlways,
       "NeMo 24.03 launcher default: optim distributed_fused_adam (apex's distributed Adam: "
       "optimizer state sharded over data parallelism)",
       conf},
      {KnobName(Knob::kFp8Recipe), "delayed", W::kFp8,
       "NeMo 24.03: TransformerEngine 1.4's DelayedScaling (fp8_amax_history_len 1024)", conf},
  };
  p.defaults.insert(p.defaults.end(), rest.begin(), rest.end());
  p.refusals = MegatronRefusals();
  p.runtime.fusion_why = "TransformerEngine 1.4 modules (transformer_engine true)";
  p.runtime.megatron_even_split = true;
  p.runtime.collectives =
      "as Megatron-LM; apex distributed Adam's gradient reduce-scatter and parameter all-gather";
  p.export_form = ExportForm::kNone;
  return p;
}

// NeMo / Megatron-Bridge: Megatron-Core under NeMo's recipes, which set the overlap, sequence
// parallel and optimizer switches per model: no parser default describes them, so those knobs
// are searched unless the run states them.
FrameworkProfile NemoRecipes() {
  FrameworkProfile p;
  p.framework = Framework::kNemo;
  p.version = "recipes";
  p.date = "2024-07/2025-04";
  p.what = "NeMo 24.07-25.04 containers and Megatron-Bridge: Megatron-Core run from recipes";
  p.defaults = ScheduleDefaults(
      "Megatron-LM default",
      "megatron/training/arguments.py: --num-layers-per-virtual-pipeline-stage unset = no "
      "interleaving (NeMo passes virtual_pipeline_model_parallel_size through)");
  // NeMo 2.x and its performance scripts (25.04-25.07: --fp8_recipe "ds" unless told) and the
  // MLPerf NeMo configs (conf/custom.yaml: FP8_RECIPE unset = delayed) default to delayed
  // scaling; MLPerf v5.1+ Llama 3.1 configs export FP8_RECIPE=tensorwise and v6.0's MoE configs
  // MXFP8 (their rows state it).
  p.defaults.push_back({KnobName(Knob::kFp8Recipe), "delayed", W::kFp8,
                        "NeMo default: fp8_recipe delayed (TransformerEngine's DelayedScaling)",
                        "scripts/performance/argument_parser.py @ v2.3.0-v2.4.0: --fp8_recipe "
                        "default 'ds'; MLPerf NeMo conf/custom.yaml: FP8_RECIPE default delayed"});
  p.refusals = MegatronRefusals();
  p.runtime.fusion_why = "TransformerEngine modules";
  // Megatron-Core's DDP, whose bucketing NeMo's recipes leave at its default (ddp_bucket_size
  // unset): one bucket without overlap_grad_reduce and on pipeline ranks after the first.
  p.runtime.megatron_ddp_buckets = true;
  // Megatron-Core's layer split, which a recipe changes only by setting a layout flag
  // (account_for_embedding/loss_in_pipeline_split, num_layers_in_first/last_pipeline_stage).
  p.runtime.megatron_even_split = true;
  p.runtime.collectives = "as Megatron-LM";
  p.export_form = ExportForm::kNone;
  return p;
}

}  // namespace

std::vector<FrameworkProfile> TorchtitanProfiles();
std::vector<FrameworkProfile> OtherFrameworkProfiles();

const std::vector<FrameworkProfile>& FrameworkProfiles() {
  static const std::vector<FrameworkProfile> kProfiles = [] {
    std::vector<FrameworkProfile> out = {MegatronD98e8a6(), Nemo2208(), Nemo2403(), NemoRecipes()};
    for (FrameworkProfile& p : TorchtitanProfiles()) out.push_back(std::move(p));
    for (FrameworkProfile& p : OtherFrameworkProfiles()) out.push_back(std::move(p));
    return out;
  }();
  return kProfiles;
}

}  // namespace paraplan
