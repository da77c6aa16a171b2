// Closed-form pipeline makespans (the analytical step time). Per-stage times are one
// micro-batch's forward (f), input-gradient backward (b) and weight-gradient backward (w) on that
// stage, communication already folded in.
#pragma once

#include <cstdint>

#include "plan/parallel_plan.h"

namespace paraplan {

struct StageTimes {
  double f = 0, b = 0, w = 0;  // seconds per micro-batch
  double Total() const { return f + b + w; }
};

struct PipelineTime {
  double makespan_s = 0;  // first forward to last backward
  double busy_s = 0;      // compute on the slowest stage: m x (f + b + w)
  double bubble_s = 0;    // makespan - busy
  int64_t slowest_stage = 0;
};

// Uniform stages reduce to the published forms: GPipe and 1F1B (m + pp - 1)(f + b + w)
// (Narayanan et al. SC'21, bubble (pp-1)/m of the ideal); interleaved m(f+b+w) + (pp-1)(f+b+w)/vpp
// (same paper, Sec. 2.2.2); zero-bubble ZB-H1 m(f+b+w) + (pp-1)(f + b - w) (Qi et al., ICLR'24);
// DualPipe m(f+b+w) + (pp/2 - 1)(f + 2b - 2w) (DeepSeek-V3 report, Table 2 with F&B = f+b+w),
// with uneven stages on the heaviest rank's pair (s, pp-1-s) averaged.
// Non-uniform stages: the slowest stage runs m micro-batches, the others add their fill/drain.
PipelineTime PipelineMakespan(Schedule schedule, int64_t pp, int64_t vpp, int64_t micro_batches,
                              const StageTimes* stages);

}  // namespace paraplan
