// PlanConstraints: what the user said about each knob — fixed (one value), restricted (a list),
// or absent (search it). Parsed from `--plan "tp=4|8,pp=2"` and from YAML `plan:` mappings
// (src/config/plan_loader.h); the search enumerates it, `simulate` resolves it to one plan.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

template <typename T>
using Choice = std::optional<std::vector<T>>;  // nullopt = free; otherwise the allowed values

struct PlanConstraints {
  Choice<int64_t> tp, pp, dp, cp, ep, etp, vpp, micro_batch, global_batch, seq_len;
  Choice<Recompute> recompute;
  Choice<bool> sequence_parallel;
  Choice<int> zero;
  Choice<Precision> precision;
  Choice<Schedule> schedule;
  Choice<MoeRouting> moe_routing;
  Choice<double> moe_capacity_factor, moe_imbalance, dp_bucket_MB;
  Choice<CommDtype> dp_comm_dtype;
  Choice<std::array<ParallelDim, 5>> placement;
  std::optional<std::vector<int64_t>> pp_layers;  // one fixed split, or absent
  std::optional<StageLayoutRule> layout;          // one fixed rule, or absent
  std::optional<MemoryRecipe> recipe;             // one fixed recipe, or absent
  std::optional<KernelRecipe> kernels;            // one fixed fusion profile, or absent
  Choice<bool> overlap_grad_reduce, overlap_param_gather, overlap_tp_comm, overlap_ep_comm,
      overlap_pp_comm, zero3_keep_gathered, grad_reduce_in_fp32;
  // Kernel-recipe switches the user stated false (`megatron_ddp_buckets: false`): a framework's
  // convention or capability that turns a switch on (SetKernelSwitch) leaves these off.
  std::vector<bool KernelRecipe::*> kernel_switches_off;
  // Whether the user stated `fusion`. A kernel switch stated alone (`sdpa_cudnn: true`) fixes the
  // kernel recipe but not its fusion profile, which stays the framework's (SetRuntimeFusion).
  bool fusion_stated = false;

  bool StatedOff(bool KernelRecipe::*member) const {
    for (bool KernelRecipe::*off : kernel_switches_off) {
      if (off == member) return true;
    }
    return false;
  }
};

// Turns one bool switch of the fixed kernel recipe on (the default recipe where none is fixed).
// False, and nothing changed, where it was on already or the user stated it off.
inline bool SetKernelSwitch(PlanConstraints& c, bool KernelRecipe::*member) {
  if (c.StatedOff(member)) return false;
  if (c.kernels && (*c.kernels).*member) return false;
  if (!c.kernels) c.kernels = KernelRecipe{};
  (*c.kernels).*member = true;
  return true;
}

// The fusion profile a framework runs when the user stated none: kept with any kernel switches the
// user or a convention already set. False, and nothing changed, where the user stated a fusion.
inline bool SetRuntimeFusion(PlanConstraints& c, Fusion fusion) {
  if (c.fusion_stated) return false;
  if (!c.kernels) c.kernels = KernelRecipe{};
  c.kernels->fusion = fusion;
  return true;
}

}  // namespace paraplan
