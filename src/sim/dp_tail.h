// The data-parallel stream and the optimizer of one stage, after its compute has run. Gradient
// buckets become ready while the last micro-batch's weight-gradient work of each chunk runs
// (Megatron-LM's bucketed, overlapped grad reduce: Narayanan et al. 2021, section 4; PyTorch
// DDP, Li et al. 2020); they run in ready order on the stage's DP stream, and the optimizer step
// waits for the last one. This is a FIFO stream fed by times the event run already fixed, so it
// is computed directly instead of through the event queue (the result is the same).
#pragma once

#include <cstdint>
#include <vector>

#include "sim/pipeline_input.h"
#include "sim/pipeline_layout.h"

namespace paraplan {

// The last task producing weight gradients for one chunk (a full B or a W).
struct GradWindow {
  int64_t chunk = 0;
  Nanos start = 0;
  Nanos end = 0;
};

struct DpBucket {
  int64_t chunk = 0;
  Nanos ready = 0;
  Nanos start = 0;
  Nanos end = 0;
};

struct StageTail {
  Nanos compute_end = 0;  // last compute task of the stage
  Nanos sm_loss = 0;      // compute lost beside the buckets that ran before compute_end
  Nanos grads_done = 0;   // last bucket's end (compute_end when there is no DP comm)
  Nanos optimizer_start = 0;
  Nanos optimizer_end = 0;
  Nanos param_gather_end = 0;  // the all-gather at the start of the step (0 when none)
  std::vector<DpBucket> buckets;
};

// `windows` holds one entry per chunk that produced gradients. Before compute_end a bucket gets
// dp.nic_rate_bwd of the NIC (the rest carries the stage's TP/CP/EP traffic), after it all; the
// compute loses dp.sm_share of the wall time buckets run before compute_end (their NCCL
// kernels' SMs, cost/overlap_sm.h), so the optimizer starts at the later of compute_end + that
// loss and the last bucket's end.
StageTail RunStageTail(const StageDpWork& dp, const std::vector<GradWindow>& windows,
                       Nanos compute_end, bool overlap_grad_reduce);

}  // namespace paraplan
