// NCCL's three wire protocols and the constants of its tuning model per (algorithm, protocol):
// base latency, per-hop latency on NVLink and on the network, and the fraction of a channel's
// bandwidth each protocol delivers. Source: NCCL src/graph/tuning.cc (ncclTopoTuneModel, NCCL
// 2.19-2.21: the baseLat and hwLat tables and the "model refinements" on busBw); constants are
// restated here with their meaning, the code is not copied. docs/cost-model.md lists them.
#pragma once

#include <cstdint>

namespace paraplan {

// LL: 8-byte lines carrying 4 bytes of data and a 4-byte flag (lowest latency, 1/4 of the
// bandwidth); LL128: 128-byte lines with 8 bytes of flags (120/128 of the bandwidth, needs
// NVLink ordering); Simple: bulk copies with a fence per chunk (full bandwidth, highest latency).
enum class NcclProtocol { kLL, kLL128, kSimple };
inline constexpr int kNcclProtocols = 3;

// Ring, (double binary) tree, NVLink SHARP inside an NVSwitch domain (NVLS), NVLS within nodes +
// tree across nodes (NVLS-tree), PAT (parallel aggregated trees: all-gather and reduce-scatter at
// one GPU per node, NCCL 2.23). CollNet (SHARP in the network switches) is not modelled: no
// cluster file describes such a fabric.
enum class NcclAlgorithm { kRing, kTree, kNvls, kNvlsTree, kPat };
inline constexpr int kNcclAlgorithms = 5;

const char* ToString(NcclProtocol p);
const char* ToString(NcclAlgorithm a);

namespace nccl_detail {
constexpr int kAlgo = kNcclAlgorithms;
constexpr int kProto = kNcclProtocols;
// Base latency (µs) per algorithm, {LL, LL128, Simple}: tuning.cc baseLat. PAT is not in that
// table's NCCL 2.19-2.21 version; it takes NCCL 2.23's "8 // Base time" (the PAT row of
// baseLatencies since, Simple only).
inline constexpr double kBaseLatencyUs[kAlgo][kProto] = {
    {6.6, 14.0, 8.4},  // ring
    {6.8, 14.0, 0.0},  // tree
    {0.0, 0.0, 0.0},   // NVLS
    {0.0, 0.0, 0.0},   // NVLS-tree
    {8.0, 8.0, 8.0},   // PAT (NCCL 2.23+)
};
// Per-hop latency (µs): tuning.cc hwLat, the NVLINK rows, then the NET rows. PAT: NCCL 2.23's
// one-GPU-per-node network latency (the tree's NET Simple value of that release, 14 µs; the PAT
// row of hwLatencies since).
inline constexpr double kNvlinkHopUs[kAlgo][kProto] = {
    {0.6, 1.9, 3.4},    // ring
    {0.6, 1.25, 28.0},  // tree (Simple: the latency of a 256 KiB chunk)
    {0.0, 0.0, 23.0},   // NVLS
    {0.0, 0.0, 23.0},   // NVLS-tree
    {0.6, 1.9, 3.4},    // PAT (as ring)
};
inline constexpr double kNetHopUs[kAlgo][kProto] = {
    {2.7, 4.0, 14.0},  // ring
    {5.0, 8.5, 28.0},  // tree
    {0.0, 0.0, 18.0},  // NVLS
    {0.0, 0.0, 14.0},  // NVLS-tree
    {2.7, 4.0, 14.0},  // PAT (Simple: 14, NCCL 2.23+)
};
}  // namespace nccl_detail

// Fixed start-up latency of one collective, µs (tuning.cc baseLat).
inline double NcclBaseLatencyUs(NcclAlgorithm a, NcclProtocol p) {
  return nccl_detail::kBaseLatencyUs[static_cast<int>(a)][static_cast<int>(p)];
}

// Latency of one step on an NVLink hop (network = false) or a network hop (network = true), µs
// (tuning.cc hwLat, rows NVLINK and NET).
inline double NcclHopLatencyUs(NcclAlgorithm a, NcclProtocol p, bool network) {
  const int ai = static_cast<int>(a), pi = static_cast<int>(p);
  return network ? nccl_detail::kNetHopUs[ai][pi] : nccl_detail::kNvlinkHopUs[ai][pi];
}

// Fraction of the channels' bus bandwidth an (algorithm, protocol) pair reaches, in (0, 1]; 0 when
// NCCL does not run that pair (NVLS, NVLS-tree and PAT are Simple only). `nodes` and `ppn`
// (GPUs per node) select NCCL's variants: LL gives 1/4 across nodes or for all-reduce, else 1/3;
// LL128 gives 0.92 (120/128 minus overhead), 0.7 at one GPU per node; tree 0.92 of the ring's,
// tree LL 0.92/3.8, tree LL128 0.92 × 7/9 in a node or 0.92 × 120/128 across nodes; PAT 0.75
// (tuning.cc "busBw *= .75", NCCL 2.24 on; 2.23 had .85).
inline double NcclProtocolFraction(NcclAlgorithm a, NcclProtocol p, bool all_reduce, int64_t nodes,
                                   int64_t ppn) {
  if (a == NcclAlgorithm::kPat) return p == NcclProtocol::kSimple ? 0.75 : 0.0;
  if (a == NcclAlgorithm::kNvls || a == NcclAlgorithm::kNvlsTree) {
    return p == NcclProtocol::kSimple ? 1.0 : 0.0;
  }
  if (a == NcclAlgorithm::kRing) {
    if (p == NcclProtocol::kLL) return (nodes > 1 || all_reduce) ? 1.0 / 4.0 : 1.0 / 3.0;
    if (p == NcclProtocol::kLL128) return ppn < 2 ? 0.7 : 0.92;
    return 1.0;
  }
  constexpr double kTree = 0.92;  // the tree's share of the channels' bandwidth
  if (p == NcclProtocol::kLL) return kTree / 3.8;
  if (p == NcclProtocol::kLL128) return kTree * (nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0);
  return kTree;
}

}  // namespace paraplan
