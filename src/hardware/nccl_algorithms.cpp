#include "hardware/nccl_algorithms.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace paraplan {
namespace {

// CPU cost of posting one network step, µs (tuning.cc getNetOverhead: 1 µs on Intel x86, 2 on
// AMD; ×3 for Simple). Intel is taken. An inter-node ring's NVLink steps cost at least this.
constexpr double kNetOverheadUs = 1.0;
// NVLS and NVLS-tree move 6/5 of the payload per GPU: algorithm bandwidth = bus bandwidth × 5/6
// (tuning.cc, the bus-to-algorithm conversion).
constexpr double kNvlsRatio = 5.0 / 6.0;

// PAT's per-rank latency, µs: tuning.cc from NCCL 2.23 on, "nRanks * 2.8; // Still a linear part"
// (beside a log2(nodes) part of a network hop / 3.5 each and its 8 µs base).
constexpr double kPatPerRankUs = 2.8;
constexpr double kPatLogHopDivisor = 3.5;

// ncclTopoGetAlgoTime's size-dependent terms (tuning.cc, the same from NCCL 2.12 to today):
// - the tree's bandwidth × treeCorrectionFactor[protocol][log2(bytes / 64)] below 64 × 2^23
//   bytes (512 MiB), NVIDIA's measured shortfall of the tree against its model at mid sizes;
// - the ring's "plateau effect": ring/Simple all-reduce across nodes with bytes / (channels ×
//   ranks) >= 64 pays 1.4 × its latency on compute capability 8.0 and later (1.9 before; every
//   GPU family a cluster file names is 8.0 or later).
constexpr int kTreeCorrectionSizes = 23;
constexpr double kTreeCorrection[kNcclProtocols][kTreeCorrectionSizes] = {
    {1.0, 1.0, 1.0, 1.0, .9, .8, .7, .7,  .7,  .7,  .6, .5,
     .4,  .4,  .5,  .6,  .7, .8, .9, 1.0, 1.0, 1.0, 1.0},  // LL
    {1.0, 1.0, 1.0, 1.0, 1.0, .9, .8, .8, .8, .7,  .6, .6,
     .6,  .6,  .6,  .6,  .8,  .9, .9, .9, .9, 1.0, 1.0},  // LL128
    {.9, .9, .9, .9, .9, .9, .9, .8, .7, .6, .6, .5,
     .5, .5, .5, .6, .7, .8, .7, .7, .8, .9, .9},  // Simple
};
constexpr double kRingPlateau = 1.4;
constexpr double kPlateauBytesPerChannelRank = 64;
constexpr int64_t kNcclMaxChannels = 32;  // MAXCHANNELS (NCCL 2.12-2.21): at most this many

int64_t Log2Floor(int64_t n) {
  return n > 1 ? 63 - __builtin_clzll(static_cast<unsigned long long>(n)) : 0;
}

// treeCorrectionFactor's entry for `bytes` (NCCL's log2i(nBytes >> 6); 1 from 512 MiB on).
double TreeCorrection(NcclProtocol p, double bytes) {
  const double units = std::floor(std::max(bytes, 0.0) / 64.0);
  const int64_t log = units >= 2 ? Log2Floor(static_cast<int64_t>(std::min(units, 9.0e18))) : 0;
  if (log >= kTreeCorrectionSizes) return 1.0;
  return kTreeCorrection[static_cast<int>(p)][log];
}

bool Reduces(CollectiveOp op) {
  return op == CollectiveOp::kAllReduce;
}

// What every pair of one collective over one fabric shares, computed once.
struct Context {
  CollectiveOp op = CollectiveOp::kAllReduce;
  bool all_reduce = false;
  int64_t ppn = 1, nodes = 1;
  double n = 1, log_nodes = 0, bus = 1, busfactor = 0;
  double intra_scale = 1, inter_scale = 1;  // cluster hop / NCCL's ring/Simple hop
  // Bytes from which a ring/Simple all-reduce pays the plateau latency; infinite where it never
  // does (one node, other collectives).
  double plateau_bytes = INFINITY;
};

Context MakeContext(CollectiveOp op, const NcclFabric& f) {
  Context x;
  x.op = op;
  x.all_reduce = Reduces(op);
  x.ppn = std::max<int64_t>(f.ppn, 1);
  x.nodes = std::max<int64_t>((f.ranks + x.ppn - 1) / x.ppn, 1);
  x.n = static_cast<double>(f.ranks);
  x.log_nodes = static_cast<double>(Log2Floor(x.nodes));
  x.bus = NcclChannelBytesPerSecond(f);
  x.busfactor = BusFactor(op, f.ranks);
  x.intra_scale =
      f.intra_hop_us / NcclHopLatencyUs(NcclAlgorithm::kRing, NcclProtocol::kSimple, false);
  x.inter_scale =
      f.inter_hop_us / NcclHopLatencyUs(NcclAlgorithm::kRing, NcclProtocol::kSimple, true);
  if (x.all_reduce && x.nodes > 1) {
    const int64_t channels = f.channels > 0 ? f.channels : kNcclMaxChannels;
    x.plateau_bytes = kPlateauBytesPerChannelRank * static_cast<double>(channels) * x.n;
  }
  return x;
}

bool Offered(const Context& x, NcclAlgorithm a, NcclProtocol p, const NcclFabric& f) {
  const bool simple = p == NcclProtocol::kSimple;
  switch (a) {
    case NcclAlgorithm::kRing:
      return true;
    case NcclAlgorithm::kTree:
      return x.all_reduce;
    case NcclAlgorithm::kNvls:
      return simple && f.nvls && x.nodes == 1;
    case NcclAlgorithm::kNvlsTree:
      return simple && f.nvls && x.nodes > 1 && x.all_reduce && x.ppn > 1;
    case NcclAlgorithm::kPat:
      return simple && !x.all_reduce && x.nodes > 1 && x.ppn == 1;
  }
  return false;
}

double LatencyUs(const Context& x, NcclAlgorithm a, NcclProtocol p) {
  double intra = NcclHopLatencyUs(a, p, false) * x.intra_scale;
  const double inter = NcclHopLatencyUs(a, p, true) * x.inter_scale;
  const double base = NcclBaseLatencyUs(a, p);
  switch (a) {
    case NcclAlgorithm::kRing: {
      const double steps = x.all_reduce ? 2.0 * (x.n - 1.0) : x.n - 1.0;
      double inter_steps = 0;
      if (x.nodes > 1) {
        const double nodes = static_cast<double>(x.nodes);
        inter_steps = x.all_reduce ? 2.0 * nodes : nodes - 1.0;
        intra = std::max(intra, kNetOverheadUs * (p == NcclProtocol::kSimple ? 3.0 : 1.0));
      }
      inter_steps = std::min(inter_steps, steps);
      return base + (steps - inter_steps) * intra + inter_steps * inter;
    }
    case NcclAlgorithm::kTree:
      return base + 2.0 * ((static_cast<double>(x.ppn) - 1.0) * intra + x.log_nodes * inter);
    case NcclAlgorithm::kNvls:
      return base + intra;
    case NcclAlgorithm::kNvlsTree:
      return base + intra + 2.0 * x.log_nodes * inter;
    case NcclAlgorithm::kPat:
      // tuning.cc (NCCL 2.23 on): log2i(nodes) network hops at a 3.5th of a hop each, and a part
      // linear in the ranks, 2.8 µs per rank.
      return base + x.log_nodes * inter / kPatLogHopDivisor + x.n * kPatPerRankUs;
  }
  return base;
}

// Bytes each GPU's links carry per payload byte, over the bus bandwidth: the nccl-tests bus
// factor for rings and PAT, 2 for the tree (up, then down), 6/5 for NVLS.
double TrafficFactor(const Context& x, NcclAlgorithm a) {
  if (a == NcclAlgorithm::kTree) return 2.0;
  if (a == NcclAlgorithm::kNvls || a == NcclAlgorithm::kNvlsTree) return 1.0 / kNvlsRatio;
  return x.busfactor;
}

// The pair's cost for `bytes` from its zero-byte form: the size-dependent terms, then latency +
// bytes / algorithm bandwidth.
NcclCost WithBytes(NcclCost c, double bytes, const Context& x) {
  if (c.seconds < 0) return c;
  if (c.algorithm == NcclAlgorithm::kTree) c.algo_bytes_per_s *= TreeCorrection(c.protocol, bytes);
  if (c.algorithm == NcclAlgorithm::kRing && c.protocol == NcclProtocol::kSimple &&
      bytes >= x.plateau_bytes) {
    c.latency_s *= kRingPlateau;
  }
  c.seconds = c.latency_s + bytes / c.algo_bytes_per_s;
  return c;
}

// Latency and algorithm bandwidth of (a, p) before the size-dependent terms (seconds 0; -1 when
// the pair has no bandwidth).
NcclCost BasePair(const Context& x, NcclAlgorithm a, NcclProtocol p, const NcclFabric& f) {
  NcclCost c{a, p, 0, 0, -1};
  double bus = x.bus;
  // NVLS-tree: the tree half crosses the network at half the NICs' rate beyond two nodes.
  if (a == NcclAlgorithm::kNvlsTree && x.nodes > 2) {
    bus = std::min(f.intra_bytes_per_s, static_cast<double>(x.ppn) * f.inter_bytes_per_s / 2.0);
  }
  bus *= NcclProtocolFraction(a, p, x.all_reduce, x.nodes, x.ppn);
  if (!(bus > 0)) return c;
  c.algo_bytes_per_s = bus / TrafficFactor(x, a);
  if ((a == NcclAlgorithm::kNvls || a == NcclAlgorithm::kNvlsTree) && f.nvls_algo_bytes_per_s > 0) {
    c.algo_bytes_per_s = std::min(c.algo_bytes_per_s, f.nvls_algo_bytes_per_s);
  }
  c.latency_s = LatencyUs(x, a, p) * 1e-6;
  c.seconds = 0;
  return c;
}

NcclCost Pair(const Context& x, NcclAlgorithm a, NcclProtocol p, double bytes,
              const NcclFabric& f) {
  return WithBytes(BasePair(x, a, p, f), bytes, x);
}

bool Costed(CollectiveOp op, const NcclFabric& f) {
  return f.ranks >= 2 && (op == CollectiveOp::kAllReduce || op == CollectiveOp::kAllGather ||
                          op == CollectiveOp::kReduceScatter);
}

// Everything of one (collective, fabric) that does not depend on the bytes: the context and, per
// pair NCCL offers, its latency and rate. The search asks the same few fabrics millions of times
// with different byte counts; the answers below are computed from these with the same
// operations in the same order as without them, so they are the same bit for bit.
struct Prepared {
  CollectiveOp op = CollectiveOp::kAllReduce;
  NcclFabric f;
  bool used = false;
  Context x;
  // NcclFastestSeconds: per considered pair, latency_s, traffic and protocol fraction, in its
  // order; then NVLS-tree's Pair, if offered.
  struct Term {
    double latency_s, traffic, frac;
    NcclProtocol protocol;
    bool tree, ring_simple;
    double cap_bytes_per_s;  // NVLS's measured ceiling (NcclFabric::nvls_algo_bytes_per_s), or 0
  };
  std::array<Term, 2 * kNcclProtocols + 2> terms{};
  int nterms = 0;
  bool nvls_tree = false;
  NcclCost nvls_tree_pair{};
  // NcclFastest: the offered pairs in its loop order (Pair without the bytes), filled on its
  // first call (NcclFastestSeconds is asked far more often).
  bool pairs_ready = false;
  int npairs = 0;
  std::array<NcclCost, static_cast<size_t>(kNcclAlgorithms) * kNcclProtocols> pairs{};
};

bool SameFabric(const NcclFabric& a, const NcclFabric& b) {
  return a.ranks == b.ranks && a.ppn == b.ppn && a.intra_bytes_per_s == b.intra_bytes_per_s &&
         a.inter_bytes_per_s == b.inter_bytes_per_s && a.intra_hop_us == b.intra_hop_us &&
         a.inter_hop_us == b.inter_hop_us && a.nvls == b.nvls && a.channels == b.channels &&
         a.nvls_algo_bytes_per_s == b.nvls_algo_bytes_per_s;
}

void Prepare(CollectiveOp op, const NcclFabric& f, Prepared& out) {
  using A = NcclAlgorithm;
  using P = NcclProtocol;
  out.op = op;
  out.f = f;
  out.used = true;
  const Context& x = out.x = MakeContext(op, f);
  out.pairs_ready = false;
  out.nterms = 0;
  auto consider = [&](A a, P p, double traffic) {
    out.terms[out.nterms++] = {LatencyUs(x, a, p) * 1e-6,
                               traffic,
                               NcclProtocolFraction(a, p, x.all_reduce, x.nodes, x.ppn),
                               p,
                               a == A::kTree,
                               a == A::kRing && p == P::kSimple,
                               a == A::kNvls ? f.nvls_algo_bytes_per_s : 0.0};
  };
  for (int p = 0; p < kNcclProtocols; ++p) {
    const auto proto = static_cast<P>(p);
    consider(A::kRing, proto, x.busfactor);
    if (x.all_reduce) consider(A::kTree, proto, 2.0);
  }
  if (Offered(x, A::kNvls, P::kSimple, f)) consider(A::kNvls, P::kSimple, 1.0 / kNvlsRatio);
  if (Offered(x, A::kPat, P::kSimple, f)) consider(A::kPat, P::kSimple, x.busfactor);
  out.nvls_tree = Offered(x, A::kNvlsTree, P::kSimple, f);
  if (out.nvls_tree) out.nvls_tree_pair = BasePair(x, A::kNvlsTree, P::kSimple, f);
}

void PreparePairs(Prepared& out) {
  const Context& x = out.x;
  out.npairs = 0;
  for (int a = 0; a < kNcclAlgorithms; ++a) {
    for (int p = 0; p < kNcclProtocols; ++p) {
      const auto algo = static_cast<NcclAlgorithm>(a);
      const auto proto = static_cast<NcclProtocol>(p);
      if (Offered(x, algo, proto, out.f)) {
        out.pairs[static_cast<size_t>(out.npairs++)] = BasePair(x, algo, proto, out.f);
      }
    }
  }
  out.pairs_ready = true;
}

// The prepared form of (op, f), from this thread's small direct-mapped table (a pure function's
// memo: which thread asks never changes an answer).
Prepared& PreparedOf(CollectiveOp op, const NcclFabric& f) {
  constexpr size_t kSlots = 256;
  thread_local std::array<Prepared, kSlots> table;
  uint64_t h = static_cast<uint64_t>(f.ranks) * 0x9E3779B97F4A7C15ULL;
  h ^= static_cast<uint64_t>(f.ppn) * 0xC2B2AE3D27D4EB4FULL + static_cast<uint64_t>(op);
  uint64_t bits = 0;
  std::memcpy(&bits, &f.inter_bytes_per_s, sizeof bits);
  h ^= bits * 0x165667B19E3779F9ULL;
  std::memcpy(&bits, &f.intra_bytes_per_s, sizeof bits);
  h ^= bits;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  Prepared& slot = table[h % kSlots];
  if (!slot.used || slot.op != op || !SameFabric(slot.f, f)) Prepare(op, f, slot);
  return slot;
}

}  // namespace

double NcclChannelBytesPerSecond(const NcclFabric& f) {
  const int64_t ppn = std::max<int64_t>(f.ppn, 1);
  if (f.ranks <= ppn) return f.intra_bytes_per_s;
  return std::min(f.intra_bytes_per_s, static_cast<double>(ppn) * f.inter_bytes_per_s);
}

NcclCost NcclPairCost(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, double bytes,
                      const NcclFabric& f) {
  if (!Costed(op, f)) return NcclCost{a, p, 0, 0, -1};
  const Context x = MakeContext(op, f);
  if (!Offered(x, a, p, f)) return NcclCost{a, p, 0, 0, -1};
  return Pair(x, a, p, bytes, f);
}

NcclCost NcclFastest(CollectiveOp op, double bytes, const NcclFabric& f) {
  NcclCost best{NcclAlgorithm::kRing, NcclProtocol::kSimple, 0, 0, 0};
  if (!Costed(op, f)) return best;
  Prepared& prepared = PreparedOf(op, f);
  if (!prepared.pairs_ready) PreparePairs(prepared);
  bool found = false;
  for (int i = 0; i < prepared.npairs; ++i) {
    const NcclCost c = WithBytes(prepared.pairs[static_cast<size_t>(i)], bytes, prepared.x);
    if (c.seconds < 0) continue;
    if (!found || c.seconds < best.seconds) best = c;
    found = true;
  }
  return best;
}

double NcclFastestSeconds(CollectiveOp op, double bytes, const NcclFabric& f) {
  if (!Costed(op, f)) return 0.0;
  const Prepared& prepared = PreparedOf(op, f);
  // seconds per payload byte at the channels' rate
  const double per_bus_byte = bytes / prepared.x.bus;
  double best = -1;
  for (int i = 0; i < prepared.nterms; ++i) {
    const Prepared::Term& term = prepared.terms[static_cast<size_t>(i)];
    const double latency = term.ring_simple && bytes >= prepared.x.plateau_bytes
                               ? term.latency_s * kRingPlateau
                               : term.latency_s;
    const double frac = term.tree ? term.frac * TreeCorrection(term.protocol, bytes) : term.frac;
    double t = latency + per_bus_byte * term.traffic / frac;
    if (term.cap_bytes_per_s > 0) t = std::max(t, latency + bytes / term.cap_bytes_per_s);
    if (best < 0 || t < best) best = t;
  }
  if (prepared.nvls_tree) {
    best = std::min(best, WithBytes(prepared.nvls_tree_pair, bytes, prepared.x).seconds);
  }
  return best;
}

}  // namespace paraplan
