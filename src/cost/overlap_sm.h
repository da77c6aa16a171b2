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

// Transformer Engine's userbuffers defaults (transformer_engine/pytorch/module/base.py,
// initialize_ub / get_default_config, TE 1.x-2.x): "num_sm": 1 for method ring_exchange (the
// all-gathers overlapped with qkv_fprop, fc1_fprop, proj_dgrad, fc2_dgrad; copy-engine sends,
// no SM margin) and 16 for pipeline (proj_fprop, fc2_fprop reduce-scatters) and bulk (qkv/fc1
// dgrad and wgrad), where "set_sm_margin" launches the overlapped GEMM on the SMs left.
inline constexpr int64_t kTeRingExchangeSms = 1;
inline constexpr int64_t kTePipelineSms = 16;
// DeepEP's normal (high-throughput) kernels: Buffer.num_sms = 20 (deep_ep/buffer.py; its README
// tunes 20-24); Megatron-Core's flex dispatcher passes moe_deepep_num_sms = 20.
inline constexpr int64_t kDeepEpSms = 20;
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
// Without overlap the forward waits for all of it. Estimate (plan_evaluation.cpp) and simulator
// (pipeline_simulator.cpp) both call this.
struct GatherWait {
  double wait_s = 0;
  double sm_loss_s = 0;
};
GatherWait ParamGatherWait(double gather_s, double buckets, double forward_s, double nic_rate,
                           double share, bool overlap);

}  // namespace paraplan
