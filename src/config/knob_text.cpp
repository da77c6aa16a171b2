#include "config/knob_text.h"

#include <vector>

#include "config/plan_loader.h"

namespace paraplan {
namespace {

// Which members of the constraints are set (one entry per member, in declaration order).
std::vector<bool> SetMembers(const PlanConstraints& c) {
  return {c.tp.has_value(),
          c.pp.has_value(),
          c.dp.has_value(),
          c.cp.has_value(),
          c.ep.has_value(),
          c.etp.has_value(),
          c.vpp.has_value(),
          c.micro_batch.has_value(),
          c.global_batch.has_value(),
          c.seq_len.has_value(),
          c.recompute.has_value(),
          c.sequence_parallel.has_value(),
          c.zero.has_value(),
          c.precision.has_value(),
          c.schedule.has_value(),
          c.moe_routing.has_value(),
          c.moe_capacity_factor.has_value(),
          c.moe_imbalance.has_value(),
          c.dp_bucket_MB.has_value(),
          c.dp_comm_dtype.has_value(),
          c.placement.has_value(),
          c.pp_layers.has_value(),
          c.layout.has_value(),
          c.recipe.has_value(),
          c.kernels.has_value(),
          c.overlap_grad_reduce.has_value(),
          c.overlap_param_gather.has_value(),
          c.overlap_tp_comm.has_value(),
          c.overlap_ep_comm.has_value(),
          c.overlap_pp_comm.has_value(),
          c.zero3_keep_gathered.has_value(),
          c.grad_reduce_in_fp32.has_value()};
}

}  // namespace

bool KnobStated(const PlanConstraints& plan, const std::string& knob, const std::string& value) {
  PlanConstraints probe;
  SetPlanKnob(probe, knob, {value});
  const std::vector<bool> probed = SetMembers(probe), stated = SetMembers(plan);
  for (size_t i = 0; i < probed.size(); ++i) {
    if (probed[i] && stated[i]) return true;
  }
  return false;
}

void SetKnobText(PlanConstraints& plan, const std::string& knob, const std::string& value) {
  SetPlanKnob(plan, knob, {value});
}

}  // namespace paraplan
