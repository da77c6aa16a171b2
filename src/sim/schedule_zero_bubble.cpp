// ZB-H1 (Qi et al. 2023, "Zero Bubble Pipeline Parallelism", ICLR 2024): the backward is split
// into B (input gradient, on the critical path) and W (weight gradient, deferrable). In step x
// stage s runs F(x), B(x - (pp - 1 - s)) and W(x - (pp - 1)): the same forwards in flight as
// 1F1B (same activation memory) while the W passes fill the cool-down bubbles, shrinking the
// bubble from (pp - 1)(F + B + W) to about (pp - 1)(F + B - W).
#include "sim/schedule.h"

namespace paraplan {

TaskLists ZeroBubbleTasks(const ScheduleShape& shape) {
  const int64_t m = shape.micro_batches;
  const int64_t pp = shape.pp;
  TaskListBuilder builder(pp * 3 * m);
  for (int64_t s = 0; s < pp; ++s) {
    const int64_t b_lag = pp - 1 - s;
    const int64_t w_lag = pp - 1;
    for (int64_t x = 0; x < m + w_lag; ++x) {
      if (x < m) builder.Add(TaskKind::kForward, x, 0);
      const int64_t b = x - b_lag;
      if (b >= 0 && b < m) builder.Add(TaskKind::kBackwardInput, b, 0);
      const int64_t w = x - w_lag;
      if (w >= 0 && w < m) builder.Add(TaskKind::kWeight, w, 0);
    }
    builder.EndStage();
  }
  return builder.Take();
}

}  // namespace paraplan
