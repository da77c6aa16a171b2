// NCCL's algorithm and protocol choice for one collective, as its tuning model makes it: for
// each (algorithm, protocol) pair NCCL runs for the collective, time = latency + bytes /
// algorithm bandwidth, and the fastest pair is the one NCCL launches (ncclTopoGetAlgoTime and the
// selection in enqueue.cc; the model itself in src/graph/tuning.cc, NCCL 2.19-2.21, with
// ncclTopoGetAlgoTime's size-dependent terms (the tree's correction factors and the ring's plateau
// latency); PAT as tuning.cc models it from NCCL 2.23 on). Bandwidths are per GPU in bytes/s;
// `bytes` follows nccl-tests' "size" (docs/cost-model.md, "Collectives as NCCL runs them", gives
// every formula).
#pragma once

#include <cstdint>

#include "hardware/collective_cost.h"
#include "hardware/nccl_protocols.h"

namespace paraplan {

// One communicator as NCCL's model sees it: `ranks` GPUs, `ppn` of them in each NVLink domain
// (node), so ranks / ppn nodes.
struct NcclFabric {
  int64_t ranks = 1;
  int64_t ppn = 1;
  double intra_bytes_per_s = 1;  // per GPU, the NVLink (innermost) tier's achievable bandwidth
  double inter_bytes_per_s = 1;  // per GPU, the slowest network tier the group crosses
  // The cluster file's latencies, which the NCCL hop latencies are scaled to: latency_us of the
  // NVLink tier is read as the ring/Simple NVLink hop (NCCL 3.4 µs), latency_us of the outermost
  // tier as the ring/Simple network hop (NCCL 14 µs); the other pairs keep NCCL's ratios.
  double intra_hop_us = 3.4;
  double inter_hop_us = 14.0;
  bool nvls = false;  // the NVLink domain reduces in the switch (NVLink SHARP)
  // A measured ceiling on NVLS's algorithm bandwidth (the NVLink tier's nvls_algbw_GBps, bytes/s):
  // NVLS and NVLS-tree run at the lower of NCCL's model rate and it; 0 = no ceiling.
  double nvls_algo_bytes_per_s = 0;
  // The communicator's ring channels (the outermost tier's `nccl_channels`); 0 = unknown, read as
  // NCCL's MAXCHANNELS, 32. Only the ring's plateau threshold reads it.
  int64_t channels = 0;
};

struct NcclCost {
  NcclAlgorithm algorithm = NcclAlgorithm::kRing;
  NcclProtocol protocol = NcclProtocol::kSimple;
  double latency_s = 0;
  double algo_bytes_per_s = 0;  // bytes / (seconds - latency); 0 when the pair does not run
  double seconds = 0;           // < 0 when NCCL does not run this pair for this collective
};

// The pair (a, p) for all-reduce, all-gather or reduce-scatter of `bytes` over `f`. `seconds` is
// -1 where NCCL does not offer the pair (tree: all-reduce only; NVLS: one NVSwitch domain and
// nvls; NVLS-tree: all-reduce across nodes with nvls; PAT: all-gather / reduce-scatter at one GPU
// per node across nodes; NVLS, NVLS-tree, PAT: Simple only).
NcclCost NcclPairCost(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, double bytes,
                      const NcclFabric& f);

// The fastest pair NCCL offers (ties: the first in algorithm then protocol order). Other ops and
// ranks < 2 cost 0.
NcclCost NcclFastest(CollectiveOp op, double bytes, const NcclFabric& f);

// NcclFastest(op, bytes, f).seconds without the bookkeeping: the search's hot path. The same
// formulas, evaluated for the offered pairs only (a test checks both agree).
double NcclFastestSeconds(CollectiveOp op, double bytes, const NcclFabric& f);

// The channels' bus bandwidth before the protocol's share, per GPU: the NVLink tier inside one
// node, else the lesser of it and the ppn NICs a node's share of the ring crosses.
double NcclChannelBytesPerSecond(const NcclFabric& f);

}  // namespace paraplan
