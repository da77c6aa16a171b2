// How many SMs an NCCL kernel holds while it runs: one CTA per channel, each CTA resident on its
// own SM for the kernel's lifetime (NCCL's `ncclConfig_t.minCTAs/maxCTAs`, NCCL_MIN_NCHANNELS /
// NCCL_MAX_NCHANNELS bound the same count). The channel counts come from the cluster file's
// `nccl_channels` per tier (docs/cost-model.md, "SM cost of overlap", derives each shipped value
// from NCCL's topology search); send/recv and all-to-all use NCCL's peer-to-peer channels.
#pragma once

#include <cstdint>

#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "hardware/group_placement.h"

namespace paraplan {

// NVLS kernels' channels: NCCL_NVLS_NCHANNELS' default, 16 (src/transport/nvls.cc,
// NCCL 2.17-2.2x).
inline constexpr int64_t kNcclNvlsChannels = 16;

// Channels of a send/recv to one peer across the network: NCCL_NCHANNELS_PER_NET_PEER's default
// (ncclTopoGetNchannels in src/graph/paths.cc: "start from 2 channels per NIC").
inline constexpr int64_t kNcclNetPeerChannels = 2;

// The ring/tree channels of a communicator spanning `group`: the `nccl_channels` of the
// outermost tier it crosses; 0 when the file does not state it or the group has one rank.
int64_t NcclRingChannels(const GroupPlacement& group, const Cluster& cluster);

// CTAs of one NCCL kernel of `op` on `group`:
//  - all-reduce / all-gather / reduce-scatter: the ring/tree channels, kNcclNvlsChannels when
//    `nvls` (the NVLS algorithm was chosen);
//  - all-to-all: NCCL's p2p channels, the ring channels rounded up to a power of two
//    (ncclTopoComputeP2pChannels: p2pnChannels = pow2Up(nChannels)), every channel busy with
//    one of the many peers;
//  - send/recv: to an NVLink peer through NVSwitch the same p2p channels (p2pnChannelsPerPeer =
//    pow2Up(min(2 * NVLink bandwidth / per-link bandwidth, nChannels)), where the NVSwitch path
//    carries all links); across the network kNcclNetPeerChannels.
int64_t NcclKernelCtas(CollectiveOp op, const GroupPlacement& group, const Cluster& cluster,
                       bool nvls = false);

}  // namespace paraplan
