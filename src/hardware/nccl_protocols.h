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

// Fixed start-up latency of one collective, µs (tuning.cc baseLat).
double NcclBaseLatencyUs(NcclAlgorithm a, NcclProtocol p);

// Latency of one step on an NVLink hop (network = false) or a network hop (network = true), µs
// (tuning.cc hwLat, rows NVLINK and NET).
double NcclHopLatencyUs(NcclAlgorithm a, NcclProtocol p, bool network);

// Fraction of the channels' bus bandwidth an (algorithm, protocol) pair reaches, in (0, 1]; 0 when
// NCCL does not run that pair (NVLS, NVLS-tree and PAT are Simple only). `nodes` and `ppn`
// (GPUs per node) select NCCL's variants: LL gives 1/4 across nodes or for all-reduce, else 1/3;
// LL128 gives 0.92 (120/128 minus overhead), 0.7 at one GPU per node; tree 0.92 of the ring's,
// tree LL 0.92/3.8, tree LL128 0.92 × 7/9 in a node or 0.92 × 120/128 across nodes.
double NcclProtocolFraction(NcclAlgorithm a, NcclProtocol p, bool all_reduce, int64_t nodes,
                            int64_t ppn);

}  // namespace paraplan
