#include "hardware/group_placement.h"

#include <algorithm>

namespace paraplan {

GroupPlacement PlaceGroup(int64_t size, int64_t stride, const Cluster& cluster) {
  GroupPlacement g;
  g.size = std::max<int64_t>(size, 1);
  g.stride = std::max<int64_t>(stride, 1);
  const int tiers = std::min(static_cast<int>(cluster.network.size()), kMaxTiers);
  const int64_t extent = g.size * g.stride;
  g.tier = std::max(tiers - 1, 0);
  for (int t = 0; t < tiers; ++t) {
    if (cluster.network[t].span >= extent) {
      g.tier = t;
      break;
    }
  }
  for (int t = 0; t < kMaxTiers; ++t) {
    if (t >= tiers || t >= g.tier) {
      g.members[t] = g.size;
      continue;
    }
    // Members inside one aligned tier-t domain: span / stride of them when the stride fits.
    const int64_t span = cluster.network[t].span;
    const int64_t inside = span >= g.stride ? span / g.stride : 1;
    g.members[t] = std::clamp<int64_t>(inside, 1, g.size);
  }
  return g;
}

}  // namespace paraplan
