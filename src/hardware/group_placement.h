// One communicator group on the network tiers: a group of n ranks with stride st covers n*st
// consecutive ranks; it lives inside the innermost tier whose span holds that extent, and pays
// the tiers beyond when it does not fit. A plan's groups are placed by plan/placement.h.
#pragma once

#include <array>
#include <cstdint>

#include "hardware/cluster.h"

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

// A group of `size` ranks with `stride`, placed on `cluster`'s tiers.
GroupPlacement PlaceGroup(int64_t size, int64_t stride, const Cluster& cluster);

// The tier a pipeline hop crosses: the send between the stage at `from` and the stage at `to`
// (stage indices) of a pipeline group of `stages` stages with `stride`, in a world of `world`
// ranks. Rank r of stage `from` (r = o * stages * stride + from * stride + i, i < stride, for
// every replica o) sends to r + (to - from) * stride; the hop takes the innermost tier whose
// aligned span holds both ranks of every such pair (the slowest pair sets the pace, as every
// replica's pipeline is in step through the data-parallel reduction). The last tier if none does.
int PipelineHopTier(int64_t stages, int64_t stride, int64_t from, int64_t to, int64_t world,
                    const Cluster& cluster);

// A two-rank group on `tier` (what a send/recv between two ranks is costed on).
GroupPlacement PairOnTier(int tier, int64_t stride);

}  // namespace paraplan
