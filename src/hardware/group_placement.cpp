#include "hardware/group_placement.h"

#include <algorithm>
#include <numeric>

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

namespace paraplan {
namespace {

// Whether some x = o * period + offset + i (o < replicas, i < width) has x and x + distance in
// different aligned blocks of `span` ranks. o * period mod span repeats after span / gcd(period,
// span) replicas, so no more are looked at.
bool Straddles(int64_t period, int64_t offset, int64_t width, int64_t distance, int64_t replicas,
               int64_t span) {
  if (distance <= 0) return false;
  if (distance >= span) return true;
  const int64_t cycle = span / std::gcd(std::max<int64_t>(period, 1), span);
  const int64_t n = std::min(std::max<int64_t>(replicas, 1), cycle);
  for (int64_t o = 0; o < n; ++o) {
    const int64_t start = (o * period + offset) % span;
    const int64_t last = start + width - 1 >= span ? span - 1 : start + width - 1;
    if (last + distance >= span) return true;
  }
  return false;
}

}  // namespace

int PipelineHopTier(int64_t stages, int64_t stride, int64_t from, int64_t to, int64_t world,
                    const Cluster& cluster) {
  const int tiers = std::min(static_cast<int>(cluster.network.size()), kMaxTiers);
  if (tiers == 0) return 0;
  stride = std::max<int64_t>(stride, 1);
  const int64_t period = std::max<int64_t>(stages, 1) * stride;
  const int64_t lo = std::min(from, to), hi = std::max(from, to);
  const int64_t replicas = std::max<int64_t>(world / period, 1);
  for (int t = 0; t < tiers; ++t) {
    const int64_t span = cluster.network[t].span;
    if (span <= 0) continue;
    if (!Straddles(period, lo * stride, stride, (hi - lo) * stride, replicas, span)) return t;
  }
  return tiers - 1;
}

GroupPlacement PairOnTier(int tier, int64_t stride) {
  GroupPlacement g;
  g.size = 2;
  g.stride = std::max<int64_t>(stride, 1);
  g.tier = tier;
  for (int t = 0; t < kMaxTiers; ++t) g.members[t] = t >= tier ? 2 : 1;
  return g;
}

}  // namespace paraplan
