// Rank placement of a plan onto network tiers. Ranks are laid out in the plan's `placement` order,
// innermost first (Megatron-LM's default tp-cp-ep-dp-pp): the first dimension varies fastest.
// Each of the plan's communicator groups is then placed on the tiers by PlaceGroup
// (hardware/group_placement.h).
#pragma once

#include "hardware/cluster.h"
#include "hardware/group_placement.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// Every group a plan creates. ep and etp live inside tp*cp*dp; edp = tp*cp*dp/(ep*etp) is the
// expert-data-parallel group that reduces expert gradients.
struct PlanPlacement {
  GroupPlacement tp, cp, dp, pp, ep, etp, edp;
  GroupPlacement dp_cp;   // the group dense gradients are reduced over (dp x cp)
  GroupPlacement tp_cp;   // tp x cp: the MoE aux loss's token counts are summed over it
  GroupPlacement etp_ep;  // etp x ep: Megatron-Core's tp_ep group (the dispatcher's token counts)
};

// The groups of `plan` on `cluster`.
PlanPlacement PlacePlan(const ParallelPlan& plan, const Cluster& cluster);

}  // namespace paraplan
