// What overlapping communication with compute costs the compute. A communication kernel beside a
// GEMM holds SMs (NCCL: one CTA per channel, hardware/nccl_channels.h; Transformer Engine's
// userbuffers: a configured num_sm; DeepEP: a configured number of SMs), and the compute running
// beside it gets the rest: its progress slows by (S - c) / S while the kernel runs (first-order:
// a GEMM of many waves scales with the SMs it gets). Two laws, by how the framework shares SMs:
//  - concurrent (NCCL, DeepEP, TE ring_exchange): the kernel holds c SMs while it runs. Compute C
//    beside comm X (of which `floor` cannot overlap) ends at floor + max(X', C + X'·c/S),
//    X' = X - floor: compute loses X'·c/S, unless the communication is the longer of the two.
//  - margin (TE pipeline / bulk overlap with set_sm_margin): the GEMM is launched on S - c SMs
//    for all of its time G and loses G·c/(S - c), whatever the communication's length.
// docs/cost-model.md, "SM cost of overlap", gives every count with its source.
#pragma once

#include <cstdint>

#include "hardware/cluster.h"

namespace paraplan {

// Transformer Engine's userbuffers as NeMo's performance recipes configure them on Hopper
// (nemo/collections/llm/recipes/tp_overlap_configs/userbuffers.py, the same tables in
// Megatron-Bridge's training/comm_overlap.py; userbuffers_bf16_h100_h8192_tp4_mbs1_seqlen8192,
// the Llama 3 70B recipe): the all-gathers beside qkv_fprop, fc1_fprop, proj_dgrad and fc2_dgrad
// are ring_exchange (copy-engine sends, 1 SM, no margin); the reduce-scatters of proj_fprop and
// fc2_fprop are pipeline with set_sm_margin, so those GEMMs run on S - num_sm (24 and 16); the
// backward's bulk overlaps of the column block (qkv/fc1 dgrad and wgrad) hold num_sm SMs beside
// the GEMM without a margin (4 and 24 for the attention block, 2 and 4 for the MLP). TE's own
// defaults without a config (initialize_ub, get_default_config: num_sm 16 and set_sm_margin for
// pipeline and bulk) cost more; the published TE-overlap runs here are all NeMo's recipes.
inline constexpr int64_t kTeRingExchangeSms = 1;
struct TeBlockSms {
  int64_t fprop_margin = 0;  // pipeline reduce-scatter beside the row GEMM (set_sm_margin)
  int64_t dgrad_bulk = 0;    // bulk all-gather beside the column dgrad (no margin)
  int64_t wgrad_bulk = 0;    // bulk reduce-scatter beside the column wgrad (no margin)
};
inline constexpr TeBlockSms kTeAttentionSms{24, 4, 24};  // proj_fprop; qkv_dgrad, qkv_wgrad
inline constexpr TeBlockSms kTeMlpSms{16, 2, 4};         // fc2_fprop; fc1_dgrad, fc1_wgrad
// DeepEP's normal (high-throughput) kernels: Buffer.num_sms = 20 (deep_ep/buffer.py; its README
// tunes 20-24); Megatron-Core's flex dispatcher passes moe_deepep_num_sms = 20.
inline constexpr int64_t kDeepEpSms = 20;
// HybridEP's dispatch and combine (NeMo AutoModel's _HybridEPManager, moe_hybridep_num_sms = 24
// at 60dfabfe3; Megatron-Core leaves it to the library's default).
inline constexpr int64_t kHybridEpSms = 24;
// DualPipe's dispatch and combine: "only 20 SMs are sufficient to fully utilize the bandwidths
// of IB and NVLink" (DeepSeek-V3 report §3.2.2, 20 of the H800's 132).
inline constexpr int64_t kDualPipeCommSms = 20;

// c / S: the share of the GPU's SMs that `sms` communication SMs hold; 0 when the SM count or
// the kernel's SMs are unknown (0), at most 1.
double SmShare(int64_t sms, const GpuSpec& gpu);

// Concurrent law. Exposed communication max(floor, comm - window) (what the overlap formulas
// already expose) and the compute lost beside the rest, share = c / S.
struct OverlapCost {
  double exposed_s = 0;
  double sm_loss_s = 0;
};
OverlapCost OverlapSeconds(double comm_s, double window_s, double floor_s, double share);

// The compute lost beside `hidden_s` of a kernel's running time when `excess_s` of the
// communication already outlasts the compute: max(0, hidden·share - excess) (the concurrent law
// for a communication stream whose exposure is computed elsewhere, e.g. a FIFO of buckets).
double ConcurrentLossSeconds(double hidden_s, double excess_s, double share);

// Margin law: a GEMM of `gemm_s` on full SMs, launched on sm_count - sms: gemm_s·c/(S - c).
double MarginLossSeconds(double gemm_s, int64_t sms, const GpuSpec& gpu);

// The distributed optimizer's parameter all-gather at the start of the step against the first
// forward (`forward_s` of the stage's first chunk), on a NIC of which the forward's own
// TP/CP/EP traffic leaves `nic_rate` (1 = all of it): the forward waits for the first bucket or
// for the part of the gather the forward's free NIC time cannot hold, max(gather / buckets,
// gather - nic_rate·forward), and then loses share × the wall time the rest runs beside it.
// Without overlap the forward waits for all of it. Estimate (dp_comm.cpp) and simulator
// (pipeline_simulator.cpp) both call this.
struct GatherWait {
  double wait_s = 0;
  double sm_loss_s = 0;
};
GatherWait ParamGatherWait(double gather_s, double buckets, double forward_s, double nic_rate,
                           double share, bool overlap);

}  // namespace paraplan
