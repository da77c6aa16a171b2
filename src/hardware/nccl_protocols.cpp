#include "hardware/nccl_protocols.h"

namespace paraplan {
namespace {

constexpr int kAlgo = kNcclAlgorithms;
constexpr int kProto = kNcclProtocols;

// Base latency (µs) per algorithm, {LL, LL128, Simple}: NCCL tuning.cc baseLat. PAT is not in
// that table's NCCL 2.19-2.21 version; it is given the ring's values.
constexpr double kBaseLatencyUs[kAlgo][kProto] = {
    {6.6, 14.0, 8.4},  // ring
    {6.8, 14.0, 0.0},  // tree
    {0.0, 0.0, 0.0},   // NVLS
    {0.0, 0.0, 0.0},   // NVLS-tree
    {6.6, 14.0, 8.4},  // PAT (as ring)
};

// Per-hop latency (µs): NCCL tuning.cc hwLat, NVLINK rows then NET rows. PAT takes the ring's.
constexpr double kNvlinkHopUs[kAlgo][kProto] = {
    {0.6, 1.9, 3.4},    // ring
    {0.6, 1.25, 28.0},  // tree (Simple: the latency of a 256 KiB chunk)
    {0.0, 0.0, 23.0},   // NVLS
    {0.0, 0.0, 23.0},   // NVLS-tree
    {0.6, 1.9, 3.4},    // PAT (as ring)
};
constexpr double kNetHopUs[kAlgo][kProto] = {
    {2.7, 4.0, 14.0},  // ring
    {5.0, 8.5, 28.0},  // tree
    {0.0, 0.0, 18.0},  // NVLS
    {0.0, 0.0, 14.0},  // NVLS-tree
    {2.7, 4.0, 14.0},  // PAT (as ring)
};

bool SimpleOnly(NcclAlgorithm a) {
  return a == NcclAlgorithm::kNvls || a == NcclAlgorithm::kNvlsTree || a == NcclAlgorithm::kPat;
}

}  // namespace

const char* ToString(NcclProtocol p) {
  switch (p) {
    case NcclProtocol::kLL:
      return "LL";
    case NcclProtocol::kLL128:
      return "LL128";
    case NcclProtocol::kSimple:
      return "Simple";
  }
  return "?";
}

const char* ToString(NcclAlgorithm a) {
  switch (a) {
    case NcclAlgorithm::kRing:
      return "ring";
    case NcclAlgorithm::kTree:
      return "tree";
    case NcclAlgorithm::kNvls:
      return "nvls";
    case NcclAlgorithm::kNvlsTree:
      return "nvls_tree";
    case NcclAlgorithm::kPat:
      return "pat";
  }
  return "?";
}

double NcclBaseLatencyUs(NcclAlgorithm a, NcclProtocol p) {
  return kBaseLatencyUs[static_cast<int>(a)][static_cast<int>(p)];
}

double NcclHopLatencyUs(NcclAlgorithm a, NcclProtocol p, bool network) {
  const int ai = static_cast<int>(a), pi = static_cast<int>(p);
  return network ? kNetHopUs[ai][pi] : kNvlinkHopUs[ai][pi];
}

double NcclProtocolFraction(NcclAlgorithm a, NcclProtocol p, bool all_reduce, int64_t nodes,
                            int64_t ppn) {
  if (SimpleOnly(a)) return p == NcclProtocol::kSimple ? 1.0 : 0.0;
  if (a == NcclAlgorithm::kRing) {
    if (p == NcclProtocol::kLL) return (nodes > 1 || all_reduce) ? 1.0 / 4.0 : 1.0 / 3.0;
    if (p == NcclProtocol::kLL128) return ppn < 2 ? 0.7 : 0.92;
    return 1.0;
  }
  // Tree: 0.92 of the channels' bandwidth, then the protocol's share.
  constexpr double kTree = 0.92;
  if (p == NcclProtocol::kLL) return kTree / 3.8;
  if (p == NcclProtocol::kLL128) return kTree * (nodes == 1 ? 7.0 / 9.0 : 120.0 / 128.0);
  return kTree;
}

}  // namespace paraplan
