// Rank placement onto network tiers. Ranks are laid out in the plan's `placement` order,
// innermost first (Megatron-LM's default tp-cp-ep-dp-pp): the first dimension varies fastest.
// A group of n ranks with stride st covers n*st consecutive ranks; it lives inside the innermost
// tier whose span holds that extent, and pays the tiers beyond when it does not fit.
#pragma once

#include <array>
#include <cstdint>

#include "hardware/cluster.h"
#include "plan/parallel_plan.h"

namespace paraplan {

inline constexpr int kMaxTiers = 4;

// One communicator group as the network sees it.
struct GroupPlacement {
  int64_t size = 1;
  int64_t stride = 1;
  int tier = 0;  // innermost tier whose span holds the whole group (last tier if none does)
  // members[L]: group members that share one tier-L domain (members[tier] == size). A
  // hierarchical collective moves size/members[L-1] ... across tier L.
  std::array<int64_t, kMaxTiers> members{1, 1, 1, 1};
};

// Every group a plan creates. ep and etp live inside tp*cp*dp; edp = tp*cp*dp/(ep*etp) is the
// expert-data-parallel group that reduces expert gradients.
struct PlanPlacement {
  GroupPlacement tp, cp, dp, pp, ep, etp, edp;
  GroupPlacement dp_cp;  // the group dense gradients are reduced over (dp x cp)
};

// A group of `size` ranks with `stride`, placed on `cluster`'s tiers.
GroupPlacement PlaceGroup(int64_t size, int64_t stride, const Cluster& cluster);

// The groups of `plan` on `cluster`.
PlanPlacement PlacePlan(const ParallelPlan& plan, const Cluster& cluster);

}  // namespace paraplan
