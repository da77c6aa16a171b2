#include "cost/moe_dispatch.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>

#include "cost/deepep_rates.h"

namespace paraplan {
namespace {

// C(a, k) / C(b, k) for k <= a <= b: the chance that k draws without replacement from b items
// all avoid the b − a marked ones. 0 when a < k.
double ChooseRatio(double a, double b, double k) {
  if (a < k) return 0.0;
  double r = 1.0;
  const auto draws = static_cast<int64_t>(k);
  for (int64_t n = 0; n < draws; ++n) {
    const auto i = static_cast<double>(n);
    r *= (a - i) / (b - i);
  }
  return r;
}

double LogChoose(double n, double k) {
  return std::lgamma(n + 1) - std::lgamma(k + 1) - std::lgamma(n - k + 1);
}

bool Divides(double small, double big) {
  return small >= 1 && std::fmod(big, small) == 0;
}

double UnitsHit(double experts, double top_k, double groups, double group_topk, double units);

}  // namespace

// The search asks this for the same few (model, EP size) inputs at every MoE layer costing: each
// thread keeps its last answers (a pure function's memo, the same numbers bit for bit).
double ExpectedUnitsHit(double experts, double top_k, double groups, double group_topk,
                        double units) {
  struct Entry {
    std::array<double, 5> in{};
    double out = 0;
    bool used = false;
  };
  constexpr size_t kKept = 8;
  thread_local std::array<Entry, kKept> kept;
  thread_local size_t next = 0;
  const std::array<double, 5> in{experts, top_k, groups, group_topk, units};
  for (const Entry& e : kept) {
    if (e.used && e.in[0] == in[0] && e.in[1] == in[1] && e.in[2] == in[2] && e.in[3] == in[3] &&
        e.in[4] == in[4]) {
      return e.out;
    }
  }
  Entry& slot = kept[next];
  next = (next + 1) % kKept;
  slot = Entry{in, UnitsHit(experts, top_k, groups, group_topk, units), true};
  return slot.out;
}

namespace {

double UnitsHit(double experts, double top_k, double groups, double group_topk, double units) {
  if (units < 1 || experts < 1 || top_k < 1) return 0.0;
  const double k = std::min(top_k, experts);
  const bool limited = groups > 1 && group_topk >= 1 && group_topk < groups &&
                       Divides(groups, experts) && group_topk * experts / groups >= k;
  if (limited && Divides(units, groups)) {
    // Each unit holds per = groups / units whole groups; j of them chosen ~ hypergeometric.
    const double per = groups / units, group_experts = experts / groups;
    const double pool = group_topk * group_experts;
    double hit = 0;
    const auto lo = static_cast<int64_t>(std::max(0.0, group_topk - (groups - per)));
    const auto hi = static_cast<int64_t>(std::min(per, group_topk));
    for (int64_t n = lo; n <= hi; ++n) {
      const auto j = static_cast<double>(n);
      const double pj = std::exp(LogChoose(per, j) + LogChoose(groups - per, group_topk - j) -
                                 LogChoose(groups, group_topk));
      hit += pj * (1.0 - ChooseRatio(pool - j * group_experts, pool, k));
    }
    return units * hit;
  }
  if (limited && Divides(groups, units)) {
    // Each group spans units / groups whole units: a unit is reachable when its group is chosen.
    const double pool = group_topk * experts / groups, unit_experts = experts / units;
    return units * (group_topk / groups) * (1.0 - ChooseRatio(pool - unit_experts, pool, k));
  }
  const double unit_experts = experts / units;
  return units * (1.0 - ChooseRatio(experts - unit_experts, experts, k));
}

}  // namespace

TwoHopTraffic TwoHopBytes(const CostGraph& d, double tokens, double token_bytes,
                          const GroupPlacement& ep) {
  TwoHopTraffic t;
  if (ep.size < 2 || tokens <= 0) return t;
  const double size = static_cast<double>(ep.size);
  const double m = ep.tier == 0 ? size : static_cast<double>(std::max<int64_t>(ep.members[0], 1));
  const double nodes = size / m;
  const double per_gpu =
      ExpectedUnitsHit(d.experts, d.top_k, d.router_groups, d.router_group_topk, size);
  t.nvlink_bytes = tokens * per_gpu * (m - 1) / m * token_bytes;
  if (nodes > 1) {
    const double per_node =
        ExpectedUnitsHit(d.experts, d.top_k, d.router_groups, d.router_group_topk, nodes);
    t.network_bytes = tokens * per_node * (nodes - 1) / nodes * token_bytes;
  }
  return t;
}

TwoHopPasses TwoHopPassesOf(const CostGraph& d, const PlanShape& p) {
  constexpr double kBf16 = 2.0;
  TwoHopPasses out;
  out.fp8_dispatch = p.dualpipe && p.precision == Precision::kFp8;
  out.combine = TwoHopBytes(d, (p.tokens / p.tp) * p.moe_load, kBf16 * d.hidden, p.groups.ep);
  out.dispatch = out.combine;
  if (out.fp8_dispatch) {  // the same copies, fewer bytes each
    out.dispatch.network_bytes *= kFp8DispatchBytes / kBf16;
    out.dispatch.nvlink_bytes *= kFp8DispatchBytes / kBf16;
  }
  return out;
}

TwoHopRates TwoHopRatesOf(const Cluster& c, const GroupPlacement& ep, const TwoHopFractions& f) {
  TwoHopRates r;
  if (c.network.empty()) return r;
  r.nvlink_bytes_per_s = f.nvlink * TierLineBytesPerSecond(c, 0);
  const int top = std::min(ep.tier, static_cast<int>(c.network.size()) - 1);
  if (top >= 1) {
    double slowest = TierLineBytesPerSecond(c, 1);
    for (int t = 2; t <= top; ++t) slowest = std::min(slowest, TierLineBytesPerSecond(c, t));
    r.network_bytes_per_s = f.network * slowest;
  }
  return r;
}

double TwoHopSeconds(const TwoHopTraffic& traffic, const GroupPlacement& ep,
                     const NetworkLinks& links, const TwoHopRates* rates) {
  if (ep.size < 2 || links.tiers < 1) return 0.0;
  const TierLink& inner = links.At(CollectiveOp::kAllToAll, 0);
  double latency = inner.latency_s;
  const double nvlink = rates != nullptr && rates->nvlink_bytes_per_s > 0
                            ? rates->nvlink_bytes_per_s
                            : inner.bytes_per_s;
  double seconds = traffic.nvlink_bytes / nvlink;
  const int top = std::min(ep.tier, links.tiers - 1);
  if (top >= 1 && traffic.network_bytes > 0) {
    double bytes_per_s = links.At(CollectiveOp::kAllToAll, 1).bytes_per_s;
    for (int t = 1; t <= top; ++t) {
      const TierLink& link = links.At(CollectiveOp::kAllToAll, t);
      bytes_per_s = std::min(bytes_per_s, link.bytes_per_s);
      latency = std::max(latency, link.latency_s);
    }
    if (rates != nullptr && rates->network_bytes_per_s > 0) {
      bytes_per_s = rates->network_bytes_per_s;
    }
    seconds = std::max(seconds, traffic.network_bytes / bytes_per_s);
  }
  return latency + seconds;
}

double TwoHopPassPairSeconds(const TwoHopPasses& hops, const Cluster& c, const GroupPlacement& ep,
                             const NetworkLinks& links, TwoHopEngine engine) {
  if (engine == TwoHopEngine::kLinks) {
    return TwoHopSeconds(hops.dispatch, ep, links) + TwoHopSeconds(hops.combine, ep, links);
  }
  const TwoHopRates to = TwoHopRatesOf(c, ep, EngineFractions(engine, ep, false));
  const TwoHopRates back = TwoHopRatesOf(c, ep, EngineFractions(engine, ep, true));
  return TwoHopSeconds(hops.dispatch, ep, links, &to) +
         TwoHopSeconds(hops.combine, ep, links, &back);
}

}  // namespace paraplan
