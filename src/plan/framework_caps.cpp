#include "plan/framework_caps.h"

#include <algorithm>

#include "core/error.h"
#include "plan/framework_launch_rules.h"
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {

namespace {

using F = Framework;
using Reasons = std::vector<std::string>;

// --- Per-knob answers that do not depend on the rest of the plan ("" = the framework has it),
// read from the framework's newest profile.

std::string Refused(F f, const char* knob, const std::string& value) {
  const FrameworkProfile* profile = FindProfile(f);
  return profile ? RefusalReason(*profile, knob, value) : std::string();
}

std::string ScheduleReason(F f, Schedule s) {
  return Refused(f, KnobName(Knob::kSchedule), ToString(s));
}

std::string ZeroReason(F f, int zero) {
  return Refused(f, KnobName(Knob::kZero), std::to_string(zero));
}

std::string RecomputeReason(F f, Recompute r) {
  return Refused(f, KnobName(Knob::kRecompute), ToString(r));
}

std::string PrecisionReason(F f, Precision p) {
  return Refused(f, KnobName(Knob::kPrecision), ToString(p));
}

std::string DpDtypeReason(F f, CommDtype d) {
  return Refused(f, KnobName(Knob::kDpCommDtype), ToString(d));
}

std::string RoutingReason(F f, MoeRouting r) {
  return Refused(f, KnobName(Knob::kMoeRouting), ToString(r));
}

void AddIf(Reasons& out, const std::string& reason) {
  if (!reason.empty()) out.push_back(reason);
}

void CheckKnobs(F f, const ParallelPlan& p, Reasons& out) {
  if (p.pp > 1 || p.schedule != Schedule::k1F1B) AddIf(out, ScheduleReason(f, p.schedule));
  if (p.dp * p.cp > 1) AddIf(out, ZeroReason(f, p.zero));
  AddIf(out, RecomputeReason(f, p.recompute));
  AddIf(out, PrecisionReason(f, p.precision));
  AddIf(out, DpDtypeReason(f, p.dp_comm_dtype));
  if (p.dp_comm_dtype == CommDtype::kFp32 && !p.grad_reduce_in_fp32 &&
      !DpDtypeReason(f, CommDtype::kBf16).empty()) {
    out.push_back(std::string("grad_reduce_in_fp32=false: ") + DisplayName(f) +
                  " reduces gradients in fp32 (mixed_precision_reduce)");
  }
  AddIf(out, RoutingReason(f, p.moe_routing));
  const ParallelPlan defaults;
  if (p.placement != defaults.placement) {
    out.push_back("placement=" + PlacementToString(p.placement) + ": " + DisplayName(f) +
                  " lays ranks out tp-cp-ep-dp-pp (innermost first)");
  }
}

// --- Rules that tie knobs together, per framework.

void CheckMegatron(const ParallelPlan& p, Reasons& out) {
  if (p.pp > 1 && p.schedule == Schedule::k1F1B && p.overlap_pp_comm) {
    out.push_back(
        "overlap_pp_comm=true with schedule=1f1b: Megatron-LM overlaps P2P only in the "
        "interleaved schedule (arguments.py sets overlap_p2p_comm=False otherwise)");
  }
  if (p.schedule == Schedule::kInterleaved && !p.overlap_pp_comm && p.pp <= 2) {
    out.push_back("interleaved without P2P overlap needs pp > 2 in Megatron-LM (arguments.py)");
  }
  if (p.overlap_tp_comm && !p.sequence_parallel) {
    out.push_back("overlap_tp_comm=true needs sequence_parallel=true (--tp-comm-overlap)");
  }
  if (p.zero3_keep_gathered) out.push_back("zero3_keep_gathered=true: torchtitan's behaviour");
  if (p.kernels.zero3_keep_after_forward) {
    out.push_back(
        "zero3_keep_after_forward=true: Megatron-FSDP releases each TransformerLayer unit after "
        "its forward and gathers it again for the backward (custom_fsdp "
        "fully_sharded_data_parallel.py, _post_forward / _pre_backward)");
  }
}

void CheckMegatronModel(const ModelSpec& m, Reasons& out) {
  if (m.activation == Activation::kRelu) out.push_back("activation relu: Megatron-LM has no flag");
  if (m.position == Position::kAlibi) out.push_back("position alibi: Megatron-LM has no flag");
  if (m.sliding_window > 0 && m.sliding_window_every > 2) {
    out.push_back(
        "sliding_window_every > 2: Megatron-LM's --window-attn-skip-freq N runs N-1 "
        "window layers per full layer, not one in N");
  }
}

void CheckTorchtitan(const ParallelPlan& p, Reasons& out) {
  if (p.tp > 1 && !p.sequence_parallel) {
    out.push_back(
        "sequence_parallel=false with tp > 1: torchtitan's TP always shards norms "
        "along the sequence (SequenceParallel)");
  }
  const bool pipelined_fsdp = p.zero == 3 && p.pp > 1 && p.dp * p.cp > 1;
  if (pipelined_fsdp != p.zero3_keep_gathered) {
    out.push_back(std::string("zero3_keep_gathered=") + (p.zero3_keep_gathered ? "true" : "false") +
                  ": torchtitan keeps FSDP weights gathered exactly when zero=3 runs with pp > 1 "
                  "(torch/distributed/pipelining/stage.py)");
  }
  if (!p.overlap_grad_reduce || !p.overlap_param_gather) {
    out.push_back("overlap_grad_reduce/overlap_param_gather=false: FSDP2 and DDP always overlap");
  }
  if (p.overlap_ep_comm) out.push_back("overlap_ep_comm=true: torchtitan has no EP overlap");
  if (p.pp > 1 && !p.overlap_pp_comm) {
    out.push_back("overlap_pp_comm=false: PyTorch pipelining posts P2P asynchronously");
  }
  if (p.dp_bucket_MB != 0) out.push_back("dp_bucket_MB: torchtitan has no bucket setting");
}

void CheckTorchtitanModel(const ModelSpec& m, Reasons& out) {
  const bool family = m.norm == Norm::kRmsNorm && m.position == Position::kRope &&
                      m.activation == Activation::kSwiglu && m.sliding_window == 0 &&
                      m.mtp_layers == 0;
  if (!family) {
    out.push_back("model " + m.name +
                  ": torchtitan's model code (llama3, llama4, deepseek_v3, qwen3) is RMSNorm + "
                  "RoPE + SwiGLU without sliding windows or MTP");
  }
}

void CheckDeepSpeed(const ParallelPlan& p, Reasons& out) {
  if (p.pp > 1 && p.zero >= 2) {
    out.push_back("zero=" + std::to_string(p.zero) +
                  " with pp > 1: \"ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism\" "
                  "(deepspeed/runtime/pipe/engine.py)");
  }
  if (p.tp > 1 && p.zero == 3) {
    out.push_back(
        "zero=3 with tp > 1: DeepSpeed's AutoTP training combines with ZeRO 0-2 "
        "(deepspeed.ai/tutorials/autotp-training)");
  }
  if (p.cp > 1) {
    out.push_back(
        "cp > 1: DeepSpeed has Ulysses (all-to-all) sequence parallelism, not ring "
        "context parallelism");
  }
  if (p.sequence_parallel) out.push_back("sequence_parallel: DeepSpeed AutoTP has no Megatron SP");
  if (p.overlap_tp_comm) out.push_back("overlap_tp_comm: DeepSpeed has no TP overlap");
  if (p.overlap_ep_comm) out.push_back("overlap_ep_comm: DeepSpeed-MoE has no EP overlap");
  if (p.etp > 1) out.push_back("etp > 1: DeepSpeed-MoE does not tensor-split experts");
  if (p.pp > 1 && p.overlap_pp_comm) {
    out.push_back(
        "overlap_pp_comm=true: DeepSpeed's pipeline sends are blocking "
        "(deepspeed/runtime/pipe/p2p.py)");
  }
  if (p.zero3_keep_gathered) out.push_back("zero3_keep_gathered=true: torchtitan's behaviour");
  if (p.kernels.zero3_keep_after_forward) {
    out.push_back(
        "zero3_keep_after_forward=true: ZeRO-3's coordinator releases a module's parameters "
        "unless reused within stage3_max_reuse_distance (partitioned_param_coordinator.py)");
  }
  // ZeRO-3 prefetches the next modules' parameters (stage3_prefetch_bucket_size); ZeRO-1/2
  // all-gather the updated partitions inside step(), after the optimizer
  // (runtime/zero/stage_1_and_2.py, all_gather_dp_groups), never under the next forward.
  if (p.zero == 3 && !p.overlap_param_gather) {
    out.push_back("overlap_param_gather=false: ZeRO-3 prefetches");
  }
  if ((p.zero == 1 || p.zero == 2) && p.overlap_param_gather && p.dp * p.cp > 1) {
    out.push_back(
        "overlap_param_gather=true with zero 1-2: DeepSpeed all-gathers the updated partitions "
        "inside step() (runtime/zero/stage_1_and_2.py)");
  }
  // Below ZeRO-2 the engine reduces gradients once the backward (or the pipeline) is done; from
  // ZeRO-2 on, zero_optimization.overlap_comm decides (runtime/zero/stage_1_and_2.py).
  if (p.overlap_grad_reduce && p.zero < 2 && p.dp * p.cp > 1) {
    out.push_back(
        "overlap_grad_reduce=true with zero < 2: DeepSpeed reduces gradients after the "
        "backward (overlap_comm needs ZeRO-2 or 3)");
  }
}

// --- Narrowing a constraint list.

template <typename T, typename Reason>
void Narrow(Choice<T>& choice, const std::vector<T>& free_values, Reason reason, F f,
            const char* knob) {
  if (!choice) {
    if (!free_values.empty()) choice = free_values;
    return;
  }
  std::vector<T> kept;
  std::string why;
  for (T v : *choice) {  // by value: Choice<bool> is a std::vector<bool>
    const std::string r = reason(v);
    if (r.empty()) {
      kept.push_back(v);
    } else if (why.empty()) {
      why = r;
    }
  }
  if (kept.empty()) {
    throw InputError(std::string("--plan ") + knob + ": --framework " + ToString(f) +
                     " cannot run it: " + why);
  }
  choice = kept;
}

template <typename T>
std::string NoReason(const T&) {
  return "";
}

}  // namespace

std::vector<std::string> FrameworkViolations(Framework f, const ModelSpec* model,
                                             const ParallelPlan& plan, bool first_only) {
  Reasons out;
  if (f == F::kAny) return out;
  CheckKnobs(f, plan, out);
  if (f == F::kMegatron) CheckMegatron(plan, out);
  if (f == F::kTorchtitan) CheckTorchtitan(plan, out);
  if (f == F::kDeepSpeed) CheckDeepSpeed(plan, out);
  AddLaunchRuleViolations(f, model, plan, out);
  if (model) {
    for (std::string& reason : FrameworkModelViolations(f, *model)) out.push_back(reason);
  }
  if (first_only && out.size() > 1) out.resize(1);
  return out;
}

std::vector<std::string> FrameworkModelViolations(Framework f, const ModelSpec& model) {
  Reasons out;
  if (f == F::kMegatron) CheckMegatronModel(model, out);
  if (f == F::kTorchtitan) CheckTorchtitanModel(model, out);
  return out;
}

PlanConstraints RestrictToFramework(Framework f, PlanConstraints c) {
  if (f == F::kAny) return c;
  const bool titan = f == F::kTorchtitan, speed = f == F::kDeepSpeed;
  using S = Schedule;
  using R = Recompute;
  const std::vector<S> schedules =
      speed ? std::vector<S>{S::k1F1B} : std::vector<S>{S::k1F1B, S::kInterleaved};
  Narrow(
      c.schedule, schedules, [f](S s) { return ScheduleReason(f, s); }, f,
      KnobName(Knob::kSchedule));
  Narrow(
      c.zero, titan ? std::vector<int>{0, 2, 3} : std::vector<int>{},
      [f](int z) { return ZeroReason(f, z); }, f, KnobName(Knob::kZero));
  const std::vector<R> recompute = titan   ? std::vector<R>{R::kNone, R::kOp, R::kFull}
                                   : speed ? std::vector<R>{R::kNone, R::kFull}
                                           : std::vector<R>{};
  Narrow(
      c.recompute, recompute, [f](R r) { return RecomputeReason(f, r); }, f,
      KnobName(Knob::kRecompute));
  Narrow(
      c.precision, {}, [f](Precision p) { return PrecisionReason(f, p); }, f,
      KnobName(Knob::kPrecision));
  Narrow(
      c.dp_comm_dtype, {}, [f](CommDtype d) { return DpDtypeReason(f, d); }, f,
      KnobName(Knob::kDpCommDtype));
  Narrow(
      c.grad_reduce_in_fp32, {},
      [f](bool fp32) {
        return fp32 || DpDtypeReason(f, CommDtype::kBf16).empty()
                   ? std::string()
                   : std::string("grad_reduce_in_fp32=false: ") + DisplayName(f) +
                         " reduces gradients in fp32 (mixed_precision_reduce)";
      },
      f, KnobName(Knob::kGradReduceInFp32));
  Narrow(
      c.moe_routing,
      titan ? std::vector<MoeRouting>{MoeRouting::kDropless} : std::vector<MoeRouting>{},
      [f](MoeRouting r) { return RoutingReason(f, r); }, f, KnobName(Knob::kMoeRouting));
  // Free switches whose framework value differs from the default search's.
  if (f == F::kMegatron) Narrow(c.overlap_pp_comm, {true, false}, NoReason<bool>, f, "");
  if (titan) {
    Narrow(c.zero3_keep_gathered, {false, true}, NoReason<bool>, f, "");
    Narrow(c.overlap_ep_comm, {false}, NoReason<bool>, f, "");
  }
  // The kernels the framework runs (its profile's runtime): torchtitan runs PyTorch modules,
  // eager unless training.compile (default false), and its models repeat grouped K/V heads
  // before SDPA (torchtitan/models/*/model.py, repeat_kv). A fusion profile the user gives is
  // kept; a kernel switch given alone keeps the framework's fusion (plan_constraints.h).
  if (const FrameworkProfile* profile = FindProfile(f)) {
    const FrameworkRuntime& rt = profile->runtime;
    if (rt.fusion) {
      SetRuntimeFusion(c, *rt.fusion);
      if (rt.repeat_kv) SetKernelSwitch(c, &KernelRecipe::repeat_kv);
      if (rt.sp_dim1_copies) SetKernelSwitch(c, &KernelRecipe::sp_dim1_copies);
    }
    // Attention through flash-attn's FlashAttention-2 kernel (kernel_recipe.h, flash_attn2).
    if (rt.flash_attn2) SetKernelSwitch(c, &KernelRecipe::flash_attn2);
    // PyTorch's non-reentrant checkpoint stops its recompute early (kernel_recipe.h).
    if (rt.recompute_early_stop) SetKernelSwitch(c, &KernelRecipe::recompute_early_stop);
    // Megatron-Core's DDP bucketing (kernel_recipe.h, megatron_ddp_buckets) for Megatron-LM and
    // NeMo's recipes.
    if (rt.megatron_ddp_buckets) SetKernelSwitch(c, &KernelRecipe::megatron_ddp_buckets);
  }
  if (speed) {
    Narrow(c.overlap_pp_comm, {false}, NoReason<bool>, f, "");
    Narrow(c.overlap_grad_reduce, {true, false}, NoReason<bool>, f, "");
    Narrow(c.overlap_param_gather, {true, false}, NoReason<bool>, f, "");  // by ZeRO stage
    Narrow(c.overlap_tp_comm, {false}, NoReason<bool>, f, "");
    Narrow(c.overlap_ep_comm, {false}, NoReason<bool>, f, "");
    Narrow(c.sequence_parallel, {false}, NoReason<bool>, f, "");
    Narrow(c.cp, {1}, NoReason<int64_t>, f, "");
    Narrow(c.etp, {1}, NoReason<int64_t>, f, "");
    // ZeRO-3 through DeepSpeed's coordinator at the profile's limits unless the user set them.
    const FrameworkProfile* profile = FindProfile(f);
    KernelRecipe kernels = c.kernels.value_or(KernelRecipe{});
    if (profile && !kernels.DeepSpeedZero3()) {
      kernels.zero3_max_live_params = profile->runtime.zero3_max_live_params;
      kernels.zero3_max_reuse_distance = profile->runtime.zero3_max_reuse_distance;
      c.kernels = kernels;
    }
    // ZeRO-1/2 gradient buckets all-reduced (kernel_recipe.h, zero_bucket_all_reduce).
    if (profile && profile->runtime.zero_bucket_all_reduce) {
      SetKernelSwitch(c, &KernelRecipe::zero_bucket_all_reduce);
    }
    // ZeRO-2 reduces every micro-batch (kernel_recipe.h, zero2_micro_batch_reduce).
    if (profile && profile->runtime.zero2_micro_batch_reduce) {
      SetKernelSwitch(c, &KernelRecipe::zero2_micro_batch_reduce);
    }
  }
  return c;
}

}  // namespace paraplan
