// Collective communication time. All-reduce, all-gather and reduce-scatter take NCCL's fastest
// algorithm and protocol for the group and size (hardware/nccl_algorithms.h); where a calibration
// profile has a fit for (op, tier), the measured α–β lines are used per tier with a hierarchical
// algorithm across tiers (reduce-scatter inside, the reduced 1/k across, all-gather back). Bus
// factors are nccl-tests' (github.com/NVIDIA/nccl-tests doc/PERFORMANCE.md).
#pragma once

#include <array>
#include <cstdint>

#include "core/name_table.h"
#include "hardware/cluster.h"
#include "hardware/group_placement.h"
#include "hardware/nccl_protocols.h"
#include "hardware/profile.h"

namespace paraplan {

enum class CollectiveOp { kAllReduce, kAllGather, kReduceScatter, kAllToAll, kSendRecv };
inline constexpr int kCollectiveOps = 5;

// Profile names: all_reduce | all_gather | reduce_scatter | all_to_all | send_recv.
const NameTable<CollectiveOp>& CollectiveOpNames();
const char* ToString(CollectiveOp op);

// nccl-tests bus factor for n ranks: all-reduce 2(n-1)/n; all-gather, reduce-scatter and
// all-to-all (n-1)/n; send/recv 1. n < 2 gives 0 (nothing moves). The one bus-factor formula:
// BusBandwidthFactor (hardware/profile_lookup.h) reads it for profile fits.
double BusFactor(CollectiveOp op, int64_t ranks);

// Latency steps of one collective over n ranks on one tier, for the profile-fit path (a measured
// latency scales by these steps from the rank count it was measured at): ring all-reduce 2(n-1),
// tree 2*ceil(log2 n) (the minimum is taken), all-gather / reduce-scatter n-1 (ring), all-to-all
// and send/recv 1 (all peers in parallel).
double LatencySteps(CollectiveOp op, int64_t ranks);

// Achievable bandwidth of a tier in bytes/s: datasheet x efficiency.LinkFraction /
// oversubscription.
double TierBytesPerSecond(const Cluster& cluster, int tier);

// A tier's line rate in bytes/s, before any efficiency fraction: datasheet / oversubscription
// (what a library with its own measured fraction of the line starts from: cost/moe_dispatch.h).
double TierLineBytesPerSecond(const Cluster& cluster, int tier);

// Seconds for one collective over `group`. `bytes` follows nccl-tests' "size": the buffer for
// all-reduce, the gathered output for all-gather, the input for reduce-scatter, what one rank
// sends in total for all-to-all, the message for send/recv.
double CollectiveSeconds(CollectiveOp op, double bytes, const GroupPlacement& group,
                         const Cluster& cluster);

// What one collective sees on one tier: latency and bus bandwidth (the profile's fit when it has
// one for the op and tier, `measured`: then `fit` points into the cluster's profile and
// latency_s is the fit's latency per latency step at its measured rank count), and whether the
// tier reduces in the switch (NVLS).
struct TierLink {
  double latency_s = 0;
  double bytes_per_s = 1;
  bool measured = false;
  bool nvls = false;
  double nvls_algo_bytes_per_s = 0;  // the tier's nvls_algbw_GBps (0 = none)
  const CollectiveFit* fit = nullptr;
  int64_t nccl_channels = 0;  // the tier's `nccl_channels` (0 = not stated)
};

TierLink ResolveTierLink(CollectiveOp op, const Cluster& cluster, int tier);

// Every (op, tier) link of a cluster resolved once, so that costing a plan looks up no tier names
// or profile fits. Same results as CollectiveSeconds on the cluster it was resolved from.
struct NetworkLinks {
  int tiers = 0;  // min(network tiers, kMaxTiers)
  std::array<std::array<TierLink, kMaxTiers>, kCollectiveOps> links{};
  const TierLink& At(CollectiveOp op, int tier) const { return links[static_cast<int>(op)][tier]; }
};

NetworkLinks ResolveNetworkLinks(const Cluster& cluster);

double CollectiveSeconds(CollectiveOp op, double bytes, const GroupPlacement& group,
                         const NetworkLinks& links);

// What CollectiveSeconds runs for one call: for all-reduce, all-gather and reduce-scatter without
// a profile fit, NCCL's algorithm and protocol (`nccl` true); otherwise the peer-to-peer or
// profile-fitted path (`nccl` false). `seconds` equals CollectiveSeconds.
struct CollectiveChoice {
  bool nccl = false;
  NcclAlgorithm algorithm = NcclAlgorithm::kRing;
  NcclProtocol protocol = NcclProtocol::kSimple;
  double seconds = 0;
};

CollectiveChoice ChooseCollective(CollectiveOp op, double bytes, const GroupPlacement& group,
                                  const NetworkLinks& links);

// Whether NCCL's tuning picks NVLS or NVLS-tree for this call: ChooseCollective's algorithm,
// without costing the call again (false at once where no tier the group uses has NVLS).
bool NcclPicksNvls(CollectiveOp op, double bytes, const GroupPlacement& group,
                   const NetworkLinks& links);

}  // namespace paraplan
