#include "validate/framework_conventions.h"

#include <algorithm>
#include <string>
#include <utility>

#include "config/knob_text.h"
#include "core/format.h"
#include "core/strings.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

template <typename T>
bool IsFixed(const Choice<T>& c) {
  return c && c->size() == 1;
}

void Note(std::vector<std::string>* notes, const std::string& text) {
  if (notes) notes->push_back(text);
}

bool FixedAbove(const Choice<int64_t>& c, int64_t v) {
  return IsFixed(c) && c->front() > v;
}

template <typename T>
bool FixedTo(const Choice<T>& c, T v) {
  return IsFixed(c) && c->front() == v;
}

bool Holds(DefaultWhen when, const PlanConstraints& c) {
  switch (when) {
    case DefaultWhen::kAlways:
      return true;
    case DefaultWhen::kTpAbove1:
      return FixedAbove(c.tp, 1);
    case DefaultWhen::kPpAbove1:
      return FixedAbove(c.pp, 1);
    case DefaultWhen::kVppAbove1:
      return FixedAbove(c.vpp, 1);
    case DefaultWhen::kInterleaved:
      return FixedTo(c.schedule, Schedule::kInterleaved);
    case DefaultWhen::kNotInterleaved:
      return IsFixed(c.schedule) && c.schedule->front() != Schedule::kInterleaved;
    case DefaultWhen::kFp16:
      return FixedTo(c.precision, Precision::kFp16);
    case DefaultWhen::kNotFp16:
      return IsFixed(c.precision) && c.precision->front() != Precision::kFp16;
    case DefaultWhen::kFp8:
      return FixedTo(c.precision, Precision::kFp8);
    case DefaultWhen::kZero0:
      return FixedTo(c.zero, 0);
    case DefaultWhen::kZeroAbove0:
      return IsFixed(c.zero) && c.zero->front() > 0;
    case DefaultWhen::kSequenceParallel:
      return FixedTo(c.sequence_parallel, true);
  }
  return false;
}

// Each knob the run leaves unset takes the profile's default, rows in order (a later row reads
// what an earlier one fixed: the schedule before the P2P overlap).
void Defaults(const FrameworkProfile& profile, PlanConstraints& c,
              std::vector<std::string>* notes) {
  for (const KnobDefault& d : profile.defaults) {
    if (!Holds(d.when, c) || KnobStated(c, d.knob, d.value)) continue;
    SetKnobText(c, d.knob, d.value);
    Note(notes, std::string(d.knob) + "=" + d.value + " (" + d.why + ")");
  }
}

// torchtitan (Dec 2024): training.batch_size is the local batch of one data-parallel rank; without
// PP it is one forward pass, with PP the schedule splits it into pipeline_parallel_microbatches.
// Unset, that was the PP degree for every schedule, looped ones (Interleaved 1F1B, two stages per
// rank) included, until torchtitan PR #781 (merged 2025-01-07, "fix num_microbatches input for
// PP") made it pp x stages per rank; the Dec 2024 benchmark ran torchtitan 9dec370 (2024-12-26)
// (torchtitan/parallelisms/pipelining_utils.py, build_pipeline_schedule).
void TorchtitanLocalBatch(UnsetMicroBatches rule, PlanConstraints& c,
                          std::vector<std::string>* notes) {
  if (!IsFixed(c.pp) || c.pp->front() < 2 || !IsFixed(c.dp) || !IsFixed(c.global_batch)) return;
  const int64_t pp = c.pp->front(), dp = c.dp->front();
  const int64_t local = c.global_batch->front() / dp;
  if (local * dp != c.global_batch->front()) return;
  if (c.micro_batch && !(IsFixed(c.micro_batch) && c.micro_batch->front() == local)) return;
  const int64_t stages_per_rank = IsFixed(c.vpp) ? c.vpp->front() : 1;
  const int64_t micro_batches =
      rule == UnsetMicroBatches::kPpTimesStagesPerRank ? pp * stages_per_rank : pp;
  if (local % micro_batches != 0) return;
  c.micro_batch = std::vector<int64_t>{local / micro_batches};
  Note(notes, "micro_batch=" + std::to_string(local / micro_batches) + " (torchtitan splits the " +
                  "local batch " + std::to_string(local) + " into " +
                  std::to_string(micro_batches) + " pipeline micro-batches" +
                  (micro_batches == pp ? std::string(", the PP degree)") : std::string(")")));
}

// torchtitan (Dec 2024) without pipeline_parallel_split_points: generate_split_points makes one
// stage per rank, two for a looped schedule (Interleaved 1F1B), and gives the first virtual
// stage layers // stages, each middle one a layer more while layers % stages last, and the last
// virtual stage the rest (torchtitan/parallelisms/pipelining_utils.py, 9dec370).
void TorchtitanSplitPoints(const ModelSpec& m, PlanConstraints& c,
                           std::vector<std::string>* notes) {
  if (!IsFixed(c.pp) || c.pp->front() < 2) return;
  if (c.pp_layers || c.layout || (c.vpp && !IsFixed(c.vpp))) return;
  const int64_t stages = c.pp->front() * (c.vpp ? c.vpp->front() : 1);
  if (stages > m.layers) return;  // torchtitan refuses; the layout rules report it
  const int64_t base = m.layers / stages;
  int64_t extra = m.layers % stages;
  StageLayoutRule rule;
  int64_t layer = 0;
  for (int64_t i = 0; i + 1 < stages; ++i) {
    const int64_t longer = i > 0 && extra > 0 ? 1 : 0;  // a middle stage takes an extra layer
    extra -= longer;
    layer += base + longer;
    rule.split_points.push_back(layer);
  }
  std::string text;
  for (int64_t point : rule.split_points) text += (text.empty() ? "" : ",") + std::to_string(point);
  c.layout = rule;
  Note(notes, "pp_split_points=" + text + " (torchtitan's generated split points)");
}

// torchtitan (Dec 2024) with PP: FSDP does not reshard after the forward ("to avoid
// per-microbatch all-gathers", torchtitan/parallelisms/parallelize_llama.py, apply_fsdp), and
// PyTorch's pipeline schedules turn gradient sync and reshard-after-backward off for every
// micro-batch but the last (torch/distributed/pipelining/stage.py, backward_maybe_with_nosync):
// a stage's weights stay gathered for the step and its gradients accumulate unsharded (in the
// fp32 reduce dtype, FSDP2's unsharded_accumulated_grad).
void TorchtitanPipelinedFsdp(PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.zero3_keep_gathered || !IsFixed(c.pp) || c.pp->front() < 2) return;
  if (!IsFixed(c.zero) || c.zero->front() != 3) return;
  c.zero3_keep_gathered = std::vector<bool>{true};
  Note(notes, "zero3_keep_gathered=true (torchtitan does not reshard FSDP weights with PP)");
}

// The kernels the framework runs a layer with when the run states no fusion: torchtitan runs eager
// PyTorch unless its config turns torch.compile on (training.compile, default false). A kernel
// switch the run states (`sdpa_cudnn: true`) keeps this fusion; a stated `fusion` replaces it.
void RuntimeKernels(const FrameworkRuntime& runtime, PlanConstraints& c,
                    std::vector<std::string>* notes) {
  if (!runtime.fusion || (c.kernels && c.kernels->fusion == *runtime.fusion)) return;
  if (!SetRuntimeFusion(c, *runtime.fusion)) return;
  Note(notes, std::string("fusion=") + ToString(*runtime.fusion) + " (" + runtime.fusion_why + ")");
}

// torchtitan (Dec 2024) ran torch 1963fc8 (2024-12-23), whose multi-stage schedules
// (ScheduleInterleaved1F1B, a PipelineScheduleMulti) step all ranks through a grid of time steps
// and wait at the end of each on that step's batched sends and receives
// (torch/distributed/pipelining/schedules.py, PipelineScheduleMulti._step_microbatches).
void TorchtitanLockstepPipeline(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!c.kernels || !IsFixed(c.pp) || c.pp->front() < 2) return;
  if (!IsFixed(c.schedule) || c.schedule->front() != Schedule::kInterleaved) return;
  if (!SetKernelSwitch(c, &KernelRecipe::pp_lockstep)) return;
  Note(notes, "pp_lockstep=true (PyTorch's multi-stage runtime waits at every time step)");
}

// torchtitan's Llama (torchtitan/models/llama/model.py, Dec 2024) expands grouped K/V heads to the
// query heads (`repeat_kv`) and calls F.scaled_dot_product_attention without enable_gqa.
void TorchtitanRepeatKv(const ModelSpec& m, PlanConstraints& c, std::vector<std::string>* notes) {
  const bool grouped = m.kv_heads > 0 && m.kv_heads < m.heads;
  if (!c.kernels || !grouped || m.attention_kind == AttentionKind::kMla) return;
  if (!SetKernelSwitch(c, &KernelRecipe::repeat_kv)) return;
  Note(notes, "repeat_kv=true (torchtitan's Llama repeats K/V to the query heads before SDPA)");
}

// torchtitan's tensor parallelism is DTensor's: its sequence-parallel all-gathers and
// reduce-scatters run through PyTorch's functional collectives along dim 1
// (torch/distributed/_functional_collectives.py; kernel_recipe.h, sp_dim1_copies).
void TorchtitanSpCopies(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!c.kernels || FixedTo(c.tp, int64_t{1})) return;
  if (!SetKernelSwitch(c, &KernelRecipe::sp_dim1_copies)) return;
  Note(notes, "sp_dim1_copies=true (DTensor's sequence-parallel collectives copy along dim 1)");
}

// torchtitan's "selective" activation checkpointing is per-op SAC.
void SelectiveIsOpSac(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!c.recompute) return;
  bool changed = false;
  for (Recompute& r : *c.recompute) {
    if (r == Recompute::kSelective) {
      r = Recompute::kOp;
      changed = true;
    }
  }
  if (changed) Note(notes, "recompute=op (torchtitan's selective is per-op SAC)");
}

// nanotron c252843 and Aleph Alpha Scaling 737f855 under ZeRO-1 all-reduce the fp32 gradients
// after the backward instead of reduce-scattering them (kernel_recipe.h, zero1_all_reduce). Set
// unless the run fixes zero to 0, where it changes nothing.
void Zero1AllReduce(Framework framework, PlanConstraints& c, std::vector<std::string>* notes) {
  if (FixedTo(c.zero, 0) || !SetKernelSwitch(c, &KernelRecipe::zero1_all_reduce)) return;
  if (framework == Framework::kNanotron) {
    Note(notes,
         "zero1_all_reduce=true (nanotron's ZeRO-1 all-reduces the whole fp32 gradient buffer)");
  } else {
    Note(notes, std::string("zero1_all_reduce=true (") + ToString(framework) +
                    "'s ZeRO-1 all-reduces the fp32 gradients, then gathers the parameters)");
  }
}

// Aleph Alpha Scaling 737f855 all-reduces an fp32 copy of each bf16 gradient bucket
// (kernel_recipe.h, dp_reduce_fp32_copy), with or without ZeRO. A switch inside the kernel recipe,
// so set here: a run that states its fusion states the recipe, and a profile default would not
// reach it.
void DpReduceFp32Copy(Framework framework, PlanConstraints& c, std::vector<std::string>* notes) {
  if (!SetKernelSwitch(c, &KernelRecipe::dp_reduce_fp32_copy)) return;
  Note(notes, std::string("dp_reduce_fp32_copy=true (") + ToString(framework) +
                  " all-reduces an fp32 copy of each bf16 gradient bucket)");
}

// DeepSpeed from v0.12.4 under ZeRO-1/2 all-reduces each gradient bucket and keeps its own slice
// (kernel_recipe.h, zero_bucket_all_reduce). Set unless zero is fixed to a stage without it.
void ZeroBucketAllReduce(PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.zero &&
      std::none_of(c.zero->begin(), c.zero->end(), [](int z) { return z == 1 || z == 2; })) {
    return;
  }
  if (!SetKernelSwitch(c, &KernelRecipe::zero_bucket_all_reduce)) return;
  Note(notes,
       "zero_bucket_all_reduce=true (DeepSpeed >= v0.12.4: ZeRO-1/2 all-reduce each gradient "
       "bucket, use_multi_rank_bucket_allreduce)");
}

// DeepSpeed's ZeRO-2 reduces the gradients after every micro-batch (kernel_recipe.h,
// zero2_micro_batch_reduce). Set unless zero is fixed to stages other than 2.
void Zero2MicroBatchReduce(PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.zero && std::none_of(c.zero->begin(), c.zero->end(), [](int z) { return z == 2; })) {
    return;
  }
  if (!SetKernelSwitch(c, &KernelRecipe::zero2_micro_batch_reduce)) return;
  Note(notes,
       "zero2_micro_batch_reduce=true (DeepSpeed's ZeRO-2 reduces every micro-batch's gradients: "
       "stage_1_and_2.py reduce_ready_partitions_and_remove_grads)");
}

// Megatron-Core's DDP (Megatron-LM since 2023-10, NeMo's recipes) buckets the gradients only
// under overlap_grad_reduce and on the first pipeline rank; otherwise one call per model chunk
// (kernel_recipe.h, megatron_ddp_buckets). Always set; a stated bucket size still applies where
// Megatron-Core buckets (the overlapped first rank).
void MegatronDdpBuckets(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!SetKernelSwitch(c, &KernelRecipe::megatron_ddp_buckets)) return;
  Note(notes,
       "megatron_ddp_buckets=true (Megatron-Core's DDP: one gradient bucket without "
       "overlap_grad_reduce and on pipeline ranks after the first)");
}

// Megatron-LM (and Megatron-Core under NeMo's recipes) without a layout flag builds num_layers / pp
// layers on every pipeline rank, / vpp per model chunk, the embedding and the loss uncounted
// (megatron/core/transformer/transformer_block.py, get_num_layers_to_build): the run's pipeline
// is that split, not paraplan's automatic balance. Where Megatron-LM refuses it (layers not
// divisible by pp·vpp) the run must have given a layout flag its source does not report, and the
// automatic balance stands for it. A searched pp takes the rule too: the candidates it refuses are
// refused with Megatron-LM's reason.
void MegatronEvenSplit(const ModelSpec& m, PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.pp_layers || c.layout || FixedTo<int64_t>(c.pp, 1)) return;
  if (IsFixed(c.pp) && (!c.vpp || IsFixed(c.vpp))) {
    const int64_t pp = c.pp->front(), vpp = c.vpp ? std::max<int64_t>(c.vpp->front(), 1) : 1;
    if (m.layers % (pp * vpp) != 0) {
      Note(notes, "pp layout balanced (Megatron-LM refuses its even split of " +
                      std::to_string(m.layers) + " layers over pp*vpp=" + std::to_string(pp * vpp) +
                      ": the run gave a layout flag its source does not state)");
      return;
    }
  }
  StageLayoutRule rule;
  rule.even_split = true;
  c.layout = rule;
  Note(notes,
       "pp_even_split=true (Megatron-LM builds num_layers / pp layers on every pipeline rank "
       "without a layout flag: transformer_block.py, get_num_layers_to_build)");
}

// A framework that adds each bf16 gradient into an fp32 buffer after every micro-batch's backward
// (kernel_recipe.h, fp32_grad_accum_pass): nanotron c252843 with fp32 accumulation; NeMo 22.08
// without pipeline parallelism, where its wgrad accumulation fusion is off. Set unless the run
// states it.
void Fp32GradAccumPass(Framework framework, PlanConstraints& c, std::vector<std::string>* notes) {
  if (!SetKernelSwitch(c, &KernelRecipe::fp32_grad_accum_pass)) return;
  Note(notes, framework == Framework::kNanotron
                  ? "fp32_grad_accum_pass=true (nanotron adds every bf16 gradient into its fp32 "
                    "buffer after each micro-batch's backward)"
                  : "fp32_grad_accum_pass=true (at pp 1 NeMo 1.11 turns gradient accumulation "
                    "fusion off; apex's DistributedFusedAdam adds every bf16 gradient into its "
                    "fp32 buffer after each micro-batch's backward)");
}

// A framework that calls flash-attn's FlashAttention-2 kernel itself (kernel_recipe.h,
// flash_attn2): nanotron c252843's CoreAttention, flash_attn_varlen_func. Set unless stated.
void FlashAttn2(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!SetKernelSwitch(c, &KernelRecipe::flash_attn2)) return;
  Note(notes, "flash_attn2=true (its attention calls flash-attn's FlashAttention-2 kernel)");
}

// Full recompute through PyTorch's non-reentrant checkpoint (kernel_recipe.h,
// recompute_early_stop): torchtitan's checkpoint_wrapper. Set unless stated; noted where the run
// states full recompute (the only mode it changes).
void RecomputeEarlyStop(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!SetKernelSwitch(c, &KernelRecipe::recompute_early_stop)) return;
  if (!FixedTo(c.recompute, Recompute::kFull)) return;
  Note(notes,
       "recompute_early_stop=true (PyTorch's non-reentrant checkpoint stops the recompute at the "
       "last saved tensor: the MLP down projection is not redone)");
}

// A ZeRO stage the run leaves open and the profile gives no default is searched over the stages
// the framework runs, never one it refuses (Aleph Alpha Scaling 737f855 has ZeRO-1 only).
void SearchOnlyStagesItRuns(const FrameworkProfile& profile, PlanConstraints& c,
                            std::vector<std::string>* notes) {
  if (c.zero) return;
  std::vector<int> runs;
  std::vector<std::string> names;
  for (int stage = 0; stage <= 3; ++stage) {
    if (!RefusalReason(profile, KnobName(Knob::kZero), std::to_string(stage)).empty()) continue;
    runs.push_back(stage);
    names.push_back(std::to_string(stage));
  }
  if (runs.empty() || runs.size() == 4) return;
  c.zero = runs;
  Note(notes, "zero searched over " + Join(names, ",") + " (the stages " +
                  ToString(profile.framework) + " " + profile.version + " runs)");
}

// DeepSpeed v0.16 overlaps data-parallel communication by ZeRO stage (docs/frameworks.md, read at
// tag v0.16.0): zero_optimization.overlap_comm defaults to stage == 3 (runtime/zero/config.py,
// overlap_comm_valid; ZeRO-0's engine all-reduces after the backward); ZeRO-1/2 all-gather the
// updated partitions inside step(), after the optimizer, whatever overlap_comm says
// (runtime/zero/stage_1_and_2.py, all_gather_dp_groups); ZeRO-3 prefetches the next modules'
// parameters (stage3_prefetch_bucket_size 5e7; partitioned_param_coordinator.py
// fetch_sub_module). Applied once zero is fixed (the profile's zero default runs first); a
// stated knob wins.
void DeepSpeedZeroOverlaps(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!IsFixed(c.zero)) return;
  const bool zero3 = c.zero->front() == 3;
  const std::string value = zero3 ? "true" : "false";
  const std::pair<Knob, const char*> rows[] = {
      {Knob::kOverlapGradReduce, zero3 ? "DeepSpeed default: overlap_comm on for ZeRO-3"
                                       : "DeepSpeed default: overlap_comm off below ZeRO-3"},
      {Knob::kOverlapParamGather,
       zero3 ? "DeepSpeed's ZeRO-3 prefetches parameters"
             : "DeepSpeed's ZeRO-1/2 all-gathers the updated partitions inside step()"}};
  for (const auto& [knob, why] : rows) {
    const std::string name = KnobName(knob);
    if (KnobStated(c, name, value)) continue;
    SetKnobText(c, name, value);
    std::string note = name;
    note += "=" + value + " (" + why + ")";
    Note(notes, note);
  }
}

// DeepSpeed's ZeRO-3 fetches through its parameter coordinator (cost/zero3_fetch.h) with the
// config's stage3_max_live_parameters and stage3_max_reuse_distance; a run that states neither
// runs the defaults (the profile's). Set unless zero is fixed below 3, where it changes nothing.
void DeepSpeedCoordinator(const FrameworkRuntime& rt, PlanConstraints& c,
                          std::vector<std::string>* notes) {
  if ((IsFixed(c.zero) && c.zero->front() != 3) || (c.kernels && c.kernels->DeepSpeedZero3())) {
    return;
  }
  KernelRecipe kernels = c.kernels.value_or(KernelRecipe{});
  kernels.zero3_max_live_params = rt.zero3_max_live_params;
  kernels.zero3_max_reuse_distance = rt.zero3_max_reuse_distance;
  c.kernels = kernels;
  Note(notes, "zero3_max_live_params=" + FormatShortest(rt.zero3_max_live_params) +
                  ", zero3_max_reuse_distance=" + FormatShortest(rt.zero3_max_reuse_distance) +
                  " (DeepSpeed's ZeRO-3 coordinator at its defaults)");
}

}  // namespace

const FrameworkProfile* ProfileOfRun(const RunSpec& run) {
  if (run.framework == Framework::kUnstated) return nullptr;
  return FindProfile(run.framework, run.framework_version);
}

PlanConstraints ApplyFrameworkConventions(const FrameworkProfile* profile, const ModelSpec& model,
                                          PlanConstraints plan, std::vector<std::string>* notes) {
  if (!profile) return plan;
  const FrameworkRuntime& rt = profile->runtime;
  RuntimeKernels(rt, plan, notes);
  if (rt.sp_dim1_copies) TorchtitanSpCopies(plan, notes);
  if (rt.selective_is_op_sac) SelectiveIsOpSac(plan, notes);
  Defaults(*profile, plan, notes);
  SearchOnlyStagesItRuns(*profile, plan, notes);
  if (profile->framework == Framework::kDeepSpeed) DeepSpeedZeroOverlaps(plan, notes);
  if (rt.local_batch_per_rank && rt.unset_micro_batches != UnsetMicroBatches::kNone) {
    TorchtitanLocalBatch(rt.unset_micro_batches, plan, notes);
  }
  if (rt.generated_split_points) TorchtitanSplitPoints(model, plan, notes);
  if (rt.fsdp_keeps_gathered_with_pp) TorchtitanPipelinedFsdp(plan, notes);
  if (rt.lockstep_multi_stage) TorchtitanLockstepPipeline(plan, notes);
  if (rt.repeat_kv) TorchtitanRepeatKv(model, plan, notes);
  if (rt.zero1_all_reduce) Zero1AllReduce(profile->framework, plan, notes);
  if (rt.zero_bucket_all_reduce) ZeroBucketAllReduce(plan, notes);
  if (rt.zero2_micro_batch_reduce) Zero2MicroBatchReduce(plan, notes);
  if (rt.dp_reduce_fp32_copy) DpReduceFp32Copy(profile->framework, plan, notes);
  if (rt.fp32_grad_accum_pass ||
      (rt.fp32_grad_accum_pass_without_pp && FixedTo<int64_t>(plan.pp, 1))) {
    Fp32GradAccumPass(profile->framework, plan, notes);
  }
  if (rt.megatron_ddp_buckets) MegatronDdpBuckets(plan, notes);
  if (rt.megatron_even_split) MegatronEvenSplit(model, plan, notes);
  if (rt.flash_attn2) FlashAttn2(plan, notes);
  if (rt.recompute_early_stop) RecomputeEarlyStop(plan, notes);
  if (rt.zero3_max_live_params > 0) DeepSpeedCoordinator(rt, plan, notes);
  return plan;
}

}  // namespace paraplan
