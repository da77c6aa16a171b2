// The bounds of the plan knobs a user types (--plan, runs files, study sweeps): far above any
// real run and low enough that no later stage allocates or loops for long (a bucket count, a
// batch's micro-batches) or overflows its integer nanoseconds. docs/formats.md lists them; a
// value past one is refused where it enters with "must be at most MAX (paraplan's bound)".
#pragma once

#include <cstdint>
#include <string>

namespace paraplan {

// Every integer knob (tp, pp, dp, cp, ep, etp, vpp, micro_batch, global_batch, seq_len).
inline constexpr int64_t kMaxKnobCount = int64_t{1} << 24;  // 16,777,216
// Any real-valued knob without a tighter bound.
inline constexpr double kMaxKnobNumber = 1e6;
// moe_capacity_factor and moe_imbalance: a factor on the tokens per expert; past the expert count
// it changes nothing, and 1,024 is above every shipped model's.
inline constexpr double kMaxMoeFactor = 1024;
// dp_bucket_MB: 0 (automatic) or [1 MB, 1 TB]. Megatron's default bucket is 40M elements
// (distributed_data_parallel_config.py); a 1-byte bucket would make one simulated bucket per
// gradient byte.
inline constexpr double kMinDpBucketMB = 1;
inline constexpr double kMaxDpBucketMB = 1e6;
// zero3_max_live_params, zero3_max_reuse_distance: elements, as DeepSpeed counts them; up to
// 1e15 (far past any model's parameter count).
inline constexpr double kMaxZero3Elements = 1e15;
// Micro-batches per step (global_batch / (micro_batch * dp)): the simulator runs each one on
// every stage. Real runs use tens to a few thousand (Llama 3 405B: 16 per step at dp = 128).
inline constexpr int64_t kMaxMicroBatches = int64_t{1} << 14;  // 16,384
// Micro-batches x pp x vpp: the forward-backward pairs the simulator schedules per plan. A
// search simulates its best 64 plans and more of the front, so each must take well under 0.1 s
// (sim_bench: 2^20 pairs take 0.2 s); real runs use a few thousand (pp = 16, m = 64-512).
inline constexpr int64_t kMaxPipelineTasks = int64_t{1} << 18;  // 262,144
// Gradient buckets of one stage the simulator queues one by one.
inline constexpr int64_t kMaxDpBuckets = int64_t{1} << 20;

// A bound as a message prints it: whole numbers in full (1000000, not 1e+06).
inline std::string BoundText(double bound) {
  if (bound == static_cast<double>(static_cast<int64_t>(bound))) {
    return std::to_string(static_cast<int64_t>(bound));
  }
  return std::to_string(bound);
}

}  // namespace paraplan
