// The fractions of each leg's line rate that DeepEP v1's normal (high-throughput) kernels reach,
// as measured by their authors and by NVIDIA, by the number of nodes the EP group spans. They
// move the NVLink leg with SM warp copies into peer buffers and drive the NIC with GPU-initiated
// RDMA (NVSHMEM IBGDA), not with NCCL's kernels, so NCCL's link fractions do not describe them.
// docs/cost-model.md, "Two-hop MoE dispatch".
#pragma once

#include "cost/moe_dispatch.h"
#include "hardware/group_placement.h"

namespace paraplan {

// One measured point of the network (RDMA) leg: the fraction of the NIC's line rate a pass's
// copies to other nodes move at, with the EP group over `nodes` nodes of 8 GPUs, one 400 Gb/s
// ConnectX-7 per GPU, 24 SMs, 4,096 tokens per rank, hidden 7168. Each source reports "logical"
// bandwidth: a token's bytes once per destination node, its own node included (DeepEP
// tests/test_internode.py @ 92fe2de, `num_rdma_token_sent`); the NIC carries the other nodes'
// share, E[remote nodes] / E[nodes hit] = (N − 1) / N under balanced routing, which is what the
// fractions below divide out (the own node's chunk is written straight into its receive buffer,
// with no RDMA put: csrc/kernels/internode.cu @ 92fe2de, the `dst_rdma_rank != rdma_rank` test).
struct DeepEpNicPoint {
  double nodes = 0, dispatch = 0, combine = 0;
};

// The measured points, fewest nodes first:
//  - 2 nodes, H100: dispatch (BF16) 84.9, combine 68.2 GB/s logical, every token reaching both
//    nodes: 0.85 and 0.68 (NVIDIA-NeMo/Automodel docs/deepep_vs_hybridep_benchmark.md
//    @ 60dfabfe3, §3.2, DeepEP v1.2.1).
//  - 4 and 8 nodes, H800: dispatch (FP8) 58 and 51, combine (BF16) 57 and 50 GB/s logical,
//    "bottleneck: RDMA" (deepseek-ai/DeepEP docs/legacy.md @ dd758ca, "Normal kernels with
//    NVLink and RDMA forwarding"), with the test's routing (one expert group per node, top
//    min(nodes, 4) groups, 256 experts, top-8: a token reaches 3.61 of 4 nodes, 3.63 of 8):
//    dispatch 58 × 0.75 / 50 = 0.87 and 51 × 0.875 / 50 = 0.89; combine 0.855 and 0.875.
//    H800 and H100 share the NIC, the SM count and the clocks; they differ in NVLink, which
//    binds DeepEP's own 2-node point (43 / 43 GB/s logical; tests/cost/deepep_rates_test.cpp),
//    so that point says nothing of the NIC and is not used here.
inline constexpr DeepEpNicPoint kDeepEpNicPoints[] = {
    {2, 0.85, 0.68}, {4, 0.87, 0.855}, {8, 0.89, 0.875}};

// The NVLink leg (one node's point, EP 8, hidden 7168, 24 SMs): H100 dispatch 335, combine
// 326 GB/s logical, 7/8 of it on NVLink: 0.65 and 0.63 of 450 GB/s (the AutoModel report §3.1);
// the same kernels on H800 give 0.67 / 0.69 and DeepEP V2 on SM100 0.63 / 0.66.
inline constexpr double kDeepEpNvlinkDispatch = 0.65, kDeepEpNvlinkCombine = 0.63;

// The network fraction of a pass over `nodes` nodes: the measured point, linear in log2(nodes)
// between points, the end points' values beyond them (no extrapolation). 0 below 2 nodes (no
// network leg).
double DeepEpNicFraction(double nodes, bool combine);

// Both legs' fractions for a dispatch (or combine) pass over the EP group `ep`.
TwoHopFractions DeepEpFractions(const GroupPlacement& ep, bool combine);

// HybridEP (NVIDIA's TMA-based dispatcher in deepseek-ai/DeepEP's hybrid-ep branch; Megatron-Core's
// flex backend `hybridep`), measured on the same H100 cluster as DeepEP's 2-node point above
// (NVIDIA-NeMo/Automodel docs/deepep_vs_hybridep_benchmark.md @ 60dfabfe3, hybrid-ep @ 17cfb81,
// hidden 7168, BF16, 8 SMs, where it saturates): EP 8 dispatch 360-367 / combine 364 GB/s
// logical (§3.1), 7/8 of it on NVLink: 0.71 / 0.71 of 450 GB/s; EP 16 over two nodes dispatch
// 85.7 / combine 76.5 GB/s logical, half of it on the NIC: 0.86 / 0.77 (§3.2). One node count
// measured: the network fractions apply at every size.
inline constexpr TwoHopFractions kHybridEpDispatch{0.71, 0.86};
inline constexpr TwoHopFractions kHybridEpCombine{0.71, 0.77};
TwoHopFractions HybridEpFractions(const GroupPlacement& ep, bool combine);

// The fractions of a pass under `engine` (kLinks: none, the links' all-to-all rates apply).
TwoHopFractions EngineFractions(TwoHopEngine engine, const GroupPlacement& ep, bool combine);

}  // namespace paraplan
