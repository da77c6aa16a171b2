#include "hardware/nccl_algorithms.h"

#include <algorithm>
#include <cmath>

namespace paraplan {
namespace {

// CPU cost of posting one network step, µs (tuning.cc getNetOverhead: 1 µs on Intel x86, 2 on
// AMD; ×3 for Simple). Intel is taken. An inter-node ring's NVLink steps cost at least this.
constexpr double kNetOverheadUs = 1.0;
// NVLS and NVLS-tree move 6/5 of the payload per GPU: algorithm bandwidth = bus bandwidth × 5/6
// (tuning.cc, the bus-to-algorithm conversion).
constexpr double kNvlsRatio = 5.0 / 6.0;

int64_t Log2Floor(int64_t n) {
  int64_t r = 0;
  while (n > 1) {
    n >>= 1;
    ++r;
  }
  return r;
}

bool Reduces(CollectiveOp op) {
  return op == CollectiveOp::kAllReduce;
}

bool Offered(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, const NcclFabric& f, int64_t nodes) {
  const bool simple = p == NcclProtocol::kSimple;
  switch (a) {
    case NcclAlgorithm::kRing:
      return true;
    case NcclAlgorithm::kTree:
      return Reduces(op);
    case NcclAlgorithm::kNvls:
      return simple && f.nvls && nodes == 1;
    case NcclAlgorithm::kNvlsTree:
      return simple && f.nvls && nodes > 1 && Reduces(op) && f.ppn > 1;
    case NcclAlgorithm::kPat:
      return simple && !Reduces(op) && nodes > 1 && f.ppn == 1;
  }
  return false;
}

// NCCL's hop latency for (a, p), scaled to the cluster's ring/Simple hop on that tier.
double HopUs(NcclAlgorithm a, NcclProtocol p, bool network, const NcclFabric& f) {
  const double ref = NcclHopLatencyUs(NcclAlgorithm::kRing, NcclProtocol::kSimple, network);
  const double cluster = network ? f.inter_hop_us : f.intra_hop_us;
  return NcclHopLatencyUs(a, p, network) * cluster / ref;
}

double LatencyUs(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, const NcclFabric& f,
                 int64_t nodes) {
  double intra = HopUs(a, p, false, f);
  const double inter = HopUs(a, p, true, f);
  const double base = NcclBaseLatencyUs(a, p);
  const double n = static_cast<double>(f.ranks), ppn = static_cast<double>(f.ppn);
  const double log_nodes = static_cast<double>(Log2Floor(nodes));
  switch (a) {
    case NcclAlgorithm::kRing: {
      const double steps = Reduces(op) ? 2.0 * (n - 1.0) : n - 1.0;
      double inter_steps = 0;
      if (nodes > 1) {
        inter_steps =
            Reduces(op) ? 2.0 * static_cast<double>(nodes) : static_cast<double>(nodes - 1);
        intra = std::max(intra, kNetOverheadUs * (p == NcclProtocol::kSimple ? 3.0 : 1.0));
      }
      inter_steps = std::min(inter_steps, steps);
      return base + (steps - inter_steps) * intra + inter_steps * inter;
    }
    case NcclAlgorithm::kTree:
      return base + 2.0 * ((ppn - 1.0) * intra + log_nodes * inter);
    case NcclAlgorithm::kNvls:
      return base + intra;
    case NcclAlgorithm::kNvlsTree:
      return base + intra + 2.0 * log_nodes * inter;
    case NcclAlgorithm::kPat:
      // One network step per doubling of the node count (log2 of nodes, rounded up).
      return base + static_cast<double>(Log2Floor(2 * nodes - 1)) * inter;
  }
  return base;
}

// Bytes each GPU's links carry per payload byte, over the bus bandwidth: the nccl-tests bus
// factor for rings and PAT, 2 for the tree (up, then down), 6/5 for NVLS.
double TrafficFactor(CollectiveOp op, NcclAlgorithm a, int64_t ranks) {
  if (a == NcclAlgorithm::kTree) return 2.0;
  if (a == NcclAlgorithm::kNvls || a == NcclAlgorithm::kNvlsTree) return 1.0 / kNvlsRatio;
  return BusFactor(op, ranks);
}

}  // namespace

double NcclChannelBytesPerSecond(const NcclFabric& f) {
  const int64_t ppn = std::max<int64_t>(f.ppn, 1);
  if (f.ranks <= ppn) return f.intra_bytes_per_s;
  return std::min(f.intra_bytes_per_s, static_cast<double>(ppn) * f.inter_bytes_per_s);
}

NcclCost NcclPairCost(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, double bytes,
                      const NcclFabric& f) {
  NcclCost c{a, p, 0, 0, -1};
  const int64_t ppn = std::max<int64_t>(f.ppn, 1);
  const int64_t nodes = std::max<int64_t>((f.ranks + ppn - 1) / ppn, 1);
  const bool all_reduce = Reduces(op);
  if (f.ranks < 2 || !Offered(op, a, p, f, nodes)) return c;
  if (!all_reduce && op != CollectiveOp::kAllGather && op != CollectiveOp::kReduceScatter) {
    return c;
  }
  double bus = NcclChannelBytesPerSecond(f);
  // NVLS-tree: the tree half crosses the network at half the NICs' rate beyond two nodes.
  if (a == NcclAlgorithm::kNvlsTree && nodes > 2) {
    bus = std::min(f.intra_bytes_per_s, static_cast<double>(ppn) * f.inter_bytes_per_s / 2.0);
  }
  bus *= NcclProtocolFraction(a, p, all_reduce, nodes, ppn);
  if (!(bus > 0)) return c;
  c.algo_bytes_per_s = bus / TrafficFactor(op, a, f.ranks);
  c.latency_s = LatencyUs(op, a, p, f, nodes) * 1e-6;
  c.seconds = c.latency_s + bytes / c.algo_bytes_per_s;
  return c;
}

NcclCost NcclFastest(CollectiveOp op, double bytes, const NcclFabric& f) {
  NcclCost best{NcclAlgorithm::kRing, NcclProtocol::kSimple, 0, 0, 0};
  bool found = false;
  for (int a = 0; a < kNcclAlgorithms; ++a) {
    for (int p = 0; p < kNcclProtocols; ++p) {
      const NcclCost c =
          NcclPairCost(op, static_cast<NcclAlgorithm>(a), static_cast<NcclProtocol>(p), bytes, f);
      if (c.seconds < 0) continue;
      if (!found || c.seconds < best.seconds) best = c;
      found = true;
    }
  }
  return best;
}

}  // namespace paraplan
