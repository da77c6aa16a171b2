#include "cost/deepep_rates.h"

#include <algorithm>
#include <cmath>
#include <iterator>

namespace paraplan {

double DeepEpNicFraction(double nodes, bool combine) {
  if (!(nodes >= 2)) return 0.0;
  const auto of = [combine](const DeepEpNicPoint& p) { return combine ? p.combine : p.dispatch; };
  const DeepEpNicPoint* first = std::begin(kDeepEpNicPoints);
  const DeepEpNicPoint* last = std::end(kDeepEpNicPoints) - 1;
  if (nodes <= first->nodes) return of(*first);
  if (nodes >= last->nodes) return of(*last);
  for (const DeepEpNicPoint* p = first; p != last; ++p) {
    const DeepEpNicPoint& next = *(p + 1);
    if (nodes > next.nodes) continue;
    const double w = std::log2(nodes / p->nodes) / std::log2(next.nodes / p->nodes);
    return of(*p) + w * (of(next) - of(*p));
  }
  return of(*last);
}

TwoHopFractions DeepEpFractions(const GroupPlacement& ep, bool combine) {
  TwoHopFractions f;
  f.nvlink = combine ? kDeepEpNvlinkCombine : kDeepEpNvlinkDispatch;
  if (ep.tier >= 1 && ep.size > 1) {
    const double per_node = static_cast<double>(std::max<int64_t>(ep.members[0], 1));
    f.network = DeepEpNicFraction(static_cast<double>(ep.size) / per_node, combine);
  }
  return f;
}

TwoHopFractions HybridEpFractions(const GroupPlacement& ep, bool combine) {
  TwoHopFractions f = combine ? kHybridEpCombine : kHybridEpDispatch;
  if (ep.tier < 1 || ep.size < 2) f.network = 0;
  return f;
}

TwoHopFractions EngineFractions(TwoHopEngine engine, const GroupPlacement& ep, bool combine) {
  switch (engine) {
    case TwoHopEngine::kDeepEp:
      return DeepEpFractions(ep, combine);
    case TwoHopEngine::kHybridEp:
      return HybridEpFractions(ep, combine);
    default:
      return {};
  }
}

}  // namespace paraplan
