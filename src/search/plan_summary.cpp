#include "search/plan_summary.h"

#include "core/format.h"

namespace paraplan {

std::string PlanSummary(const ParallelPlan& p) {
  std::string s =
      "tp=" + std::to_string(p.tp) + " pp=" + std::to_string(p.pp) + " dp=" + std::to_string(p.dp);
  if (p.cp > 1) s += " cp=" + std::to_string(p.cp);
  if (p.ep > 1) s += " ep=" + std::to_string(p.ep);
  if (p.etp > 1) s += " etp=" + std::to_string(p.etp);
  if (p.vpp > 1) s += " vpp=" + std::to_string(p.vpp);
  s += " mb=" + std::to_string(p.micro_batch);
  s += std::string(" recompute=") + ToString(p.recompute);
  s += " zero=" + std::to_string(p.zero);
  if (p.sequence_parallel) s += " sp";
  s += std::string(" ") + ToString(p.schedule);
  if (p.precision != Precision::kBf16) s += std::string(" ") + ToString(p.precision);
  if (p.overlap_tp_comm) s += " tp-overlap";
  if (p.overlap_ep_comm) s += " ep-overlap";
  // The optimizer-state recipes the search may choose when memory is tight (memory_relief.h).
  if (p.recipe.optimizer_moments == MomentDtype::kBf16) s += " bf16-moments";
  if (p.recipe.optimizer_offload > 0)
    s += " optimizer-offload=" + FormatShortest(p.recipe.optimizer_offload);
  return s;
}

}  // namespace paraplan
