#include "hardware/collective_cost.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "hardware/nccl_algorithms.h"
#include "hardware/profile_lookup.h"

namespace paraplan {

const NameTable<CollectiveOp>& CollectiveOpNames() {
  static const NameTable<CollectiveOp> kTable = {{"all_reduce", CollectiveOp::kAllReduce},
                                                 {"all_gather", CollectiveOp::kAllGather},
                                                 {"reduce_scatter", CollectiveOp::kReduceScatter},
                                                 {"all_to_all", CollectiveOp::kAllToAll},
                                                 {"send_recv", CollectiveOp::kSendRecv}};
  return kTable;
}

const char* ToString(CollectiveOp op) {
  return NameOf(CollectiveOpNames(), op);
}

double BusFactor(CollectiveOp op, int64_t ranks) {
  if (op == CollectiveOp::kSendRecv) return 1.0;
  if (ranks < 2) return 0.0;
  const double n = static_cast<double>(ranks);
  if (op == CollectiveOp::kAllReduce) return 2.0 * (n - 1.0) / n;
  return (n - 1.0) / n;
}

double LatencySteps(CollectiveOp op, int64_t ranks) {
  if (op == CollectiveOp::kSendRecv) return 1.0;
  if (ranks < 2) return 0.0;
  const double n = static_cast<double>(ranks);
  switch (op) {
    case CollectiveOp::kAllReduce:
      return std::min(2.0 * (n - 1.0), 2.0 * std::ceil(std::log2(n)));
    case CollectiveOp::kAllGather:
    case CollectiveOp::kReduceScatter:
      return n - 1.0;
    default:
      return 1.0;
  }
}

namespace {
double Oversubscription(const NetworkTier& t) {
  return t.oversubscription >= 1.0 ? t.oversubscription : 1.0;
}
}  // namespace

double TierBytesPerSecond(const Cluster& cluster, int tier) {
  const NetworkTier& t = cluster.network[tier];
  return GBpsToBytesPerSecond(t.bandwidth_GBps) * cluster.efficiency.LinkFraction(t.name) /
         Oversubscription(t);
}

double TierLineBytesPerSecond(const Cluster& cluster, int tier) {
  const NetworkTier& t = cluster.network[tier];
  return GBpsToBytesPerSecond(t.bandwidth_GBps) / Oversubscription(t);
}

TierLink ResolveTierLink(CollectiveOp op, const Cluster& cluster, int tier) {
  const NetworkTier& t = cluster.network[tier];
  TierLink link{UsToSeconds(t.latency_us), TierBytesPerSecond(cluster, tier), false, t.nvls,
                GBpsToBytesPerSecond(t.nvls_algbw_GBps)};
  if (cluster.profile) {
    auto op_it = cluster.profile->collectives.find(ToString(op));
    if (op_it != cluster.profile->collectives.end()) {
      auto fit = op_it->second.find(t.name);
      if (fit != op_it->second.end() && fit->second.bandwidth_GBps > 0) {
        // The fit's latency is the whole collective's at the ranks it was measured on; per
        // latency step here, so that latency_s × LatencySteps gives it back at those ranks.
        const double steps = fit->second.ranks >= 2 ? LatencySteps(op, fit->second.ranks) : 1.0;
        link = {UsToSeconds(fit->second.latency_us) / std::max(steps, 1.0),
                GBpsToBytesPerSecond(fit->second.bandwidth_GBps),
                true,
                t.nvls,
                GBpsToBytesPerSecond(t.nvls_algbw_GBps),
                &fit->second};
      }
    }
  }
  link.nccl_channels = t.nccl_channels;
  return link;
}

NetworkLinks ResolveNetworkLinks(const Cluster& cluster) {
  NetworkLinks out;
  out.tiers = std::min(static_cast<int>(cluster.network.size()), kMaxTiers);
  for (int op = 0; op < kCollectiveOps; ++op) {
    for (int t = 0; t < out.tiers; ++t) {
      out.links[op][t] = ResolveTierLink(static_cast<CollectiveOp>(op), cluster, t);
    }
  }
  return out;
}

namespace {

// All-to-all: a rank's traffic to peers reached first at tier L crosses tier L; tiers run in
// parallel so the slowest one decides, plus the outermost latency.
template <typename LinkAt>
double AllToAllSeconds(double bytes, const GroupPlacement& g, const LinkAt& link_at) {
  double worst = 0, latency = 0;
  int64_t below = 1;
  const double n = static_cast<double>(g.size);
  for (int t = 0; t <= g.tier; ++t) {
    const int64_t here = g.members[t];
    if (here <= below) continue;
    const TierLink& link = link_at(CollectiveOp::kAllToAll, t);
    const double share = static_cast<double>(here - below) / n;
    worst = std::max(worst, bytes * share / link.bytes_per_s);
    latency = std::max(latency, link.latency_s);
    below = here;
  }
  return latency + worst;
}

// The group as NCCL's model sees it: its members inside one innermost-tier domain, that tier's
// bandwidth and hop latency, and the slowest (and slowest-to-answer) tier it crosses beyond.
template <typename LinkAt>
NcclFabric NcclFabricOf(const GroupPlacement& g, CollectiveOp op, const LinkAt& link_at) {
  NcclFabric f;
  const TierLink& inner = link_at(op, 0);
  f.ranks = g.size;
  f.ppn = g.tier == 0 ? g.size : g.members[0];
  f.intra_bytes_per_s = inner.bytes_per_s;
  f.intra_hop_us = inner.latency_s * 1e6;
  f.inter_bytes_per_s = inner.bytes_per_s;
  f.inter_hop_us = f.intra_hop_us;
  f.nvls = inner.nvls;
  f.nvls_algo_bytes_per_s = inner.nvls_algo_bytes_per_s;
  for (int t = 1; t <= g.tier; ++t) {
    const TierLink& link = link_at(op, t);
    f.inter_bytes_per_s =
        t == 1 ? link.bytes_per_s : std::min(f.inter_bytes_per_s, link.bytes_per_s);
    f.inter_hop_us = t == 1 ? link.latency_s * 1e6 : std::max(f.inter_hop_us, link.latency_s * 1e6);
  }
  f.channels = link_at(op, g.tier).nccl_channels;  // the outermost tier's (NcclRingChannels)
  return f;
}

// A sweep of the whole collective across nodes (nccl-tests on N ranks, `ranks_per_node` of them
// in each innermost-tier domain) measured every level at once: the group's collective is read
// from it whole, not as an inner level plus this one at bytes / members[0]. A group with k ranks
// per domain sends bytes / k per GPU through that GPU's share of the domain's NICs; the sweep
// with p per domain sends bytes' / p, so it loads each NIC the same at bytes' = bytes · p / k on
// the same number of domains (ranks' = size · p / k). A group that spans the outer tier
// but holds a single rank per domain is the case k = 1.
double WholeSweepSeconds(const CollectiveFit& fit, CollectiveOp op, double bytes,
                         const GroupPlacement& g) {
  const double per_domain = static_cast<double>(std::max<int64_t>(g.members[0], 1));
  const double scale = static_cast<double>(fit.ranks_per_node) / per_domain;
  const auto ranks = static_cast<int64_t>(std::llround(static_cast<double>(g.size) * scale));
  return MeasuredCollectiveUs(fit, op, bytes * scale, std::max<int64_t>(ranks, 2)) * 1e-6;
}

// `link_at(op, tier)` gives the TierLink; both public overloads share this.
template <typename LinkAt>
double Seconds(CollectiveOp op, double bytes, const GroupPlacement& g, const LinkAt& link_at) {
  if (op == CollectiveOp::kSendRecv) {
    const TierLink& link = link_at(op, g.tier);
    if (link.fit != nullptr) return MeasuredCollectiveUs(*link.fit, op, bytes, 2) * 1e-6;
    return link.latency_s + bytes / link.bytes_per_s;
  }
  if (g.size < 2) return 0.0;
  if (op == CollectiveOp::kAllToAll) return AllToAllSeconds(bytes, g, link_at);
  bool measured = false;
  for (int t = 0; t <= g.tier; ++t) measured = measured || link_at(op, t).measured;
  if (!measured) return NcclFastestSeconds(op, bytes, NcclFabricOf(g, op, link_at));
  // A calibration profile's fits: measured per tier, so the levels are costed one by one.
  // Hierarchical (2D) algorithm: level t reduces among members[t]/members[t-1] ranks the data
  // left after the inner levels (bytes / members[t-1]). The phases run one after the other
  // (reduce-scatter inside, across, all-gather inside), and the NICs a group crosses are shared
  // with the other groups' traffic, so the levels' times add up. A measured level takes its
  // sweep's time at that size (MeasuredCollectiveUs: the per-size curve, else the α–β line).
  double latency = 0, total = 0;
  int64_t below = 1;
  for (int t = 0; t <= g.tier; ++t) {
    const int64_t here = g.members[t];
    if (here <= below) continue;
    const int64_t ranks = here / below;
    const TierLink& link = link_at(op, t);
    if (link.fit != nullptr && t > 0 && t == g.tier && link.fit->ranks_per_node > 1) {
      return WholeSweepSeconds(*link.fit, op, bytes, g);
    }
    if (link.fit != nullptr) {
      total +=
          MeasuredCollectiveUs(*link.fit, op, bytes / static_cast<double>(below), ranks) * 1e-6;
      below = here;
      continue;
    }
    double factor = BusFactor(op, ranks);
    // NVLink SHARP: the switch reduces, each GPU sends and receives the buffer once.
    if (op == CollectiveOp::kAllReduce && link.nvls && !link.measured) factor = 1.0;
    latency += link.latency_s * LatencySteps(op, ranks);
    total += bytes / static_cast<double>(below) * factor / link.bytes_per_s;
    below = here;
  }
  return latency + total;
}

}  // namespace

double CollectiveSeconds(CollectiveOp op, double bytes, const GroupPlacement& g,
                         const Cluster& cluster) {
  if (cluster.network.empty() || bytes <= 0) return 0.0;
  return Seconds(op, bytes, g,
                 [&cluster](CollectiveOp o, int t) { return ResolveTierLink(o, cluster, t); });
}

namespace {

// NCCL's algorithm and protocol for a call the NCCL model costs (all-reduce, all-gather or
// reduce-scatter of some bytes over 2+ ranks, no profile fit on the tiers the group uses); false,
// leaving *best alone, for any other call.
bool NcclPick(CollectiveOp op, double bytes, const GroupPlacement& g, const NetworkLinks& links,
              NcclCost* best) {
  const bool nccl_op = op == CollectiveOp::kAllReduce || op == CollectiveOp::kAllGather ||
                       op == CollectiveOp::kReduceScatter;
  if (!nccl_op || links.tiers == 0 || bytes <= 0 || g.size < 2) return false;
  for (int t = 0; t <= g.tier; ++t) {
    if (links.At(op, t).measured) return false;
  }
  auto link_at = [&links](CollectiveOp o, int t) -> const TierLink& { return links.At(o, t); };
  *best = NcclFastest(op, bytes, NcclFabricOf(g, op, link_at));
  return true;
}

}  // namespace

CollectiveChoice ChooseCollective(CollectiveOp op, double bytes, const GroupPlacement& g,
                                  const NetworkLinks& links) {
  CollectiveChoice c;
  c.seconds = CollectiveSeconds(op, bytes, g, links);
  NcclCost best;
  if (!NcclPick(op, bytes, g, links, &best)) return c;
  c.nccl = true;
  c.algorithm = best.algorithm;
  c.protocol = best.protocol;
  return c;
}

bool NcclPicksNvls(CollectiveOp op, double bytes, const GroupPlacement& g,
                   const NetworkLinks& links) {
  // NVLS lives in the innermost (NVSwitch) tier: without it there is nothing to ask.
  if (links.tiers == 0 || !links.At(op, 0).nvls) return false;
  NcclCost best;
  if (!NcclPick(op, bytes, g, links, &best)) return false;
  return best.algorithm == NcclAlgorithm::kNvls || best.algorithm == NcclAlgorithm::kNvlsTree;
}

double CollectiveSeconds(CollectiveOp op, double bytes, const GroupPlacement& g,
                         const NetworkLinks& links) {
  if (links.tiers == 0 || bytes <= 0) return 0.0;
  return Seconds(op, bytes, g,
                 [&links](CollectiveOp o, int t) -> const TierLink& { return links.At(o, t); });
}

}  // namespace paraplan
