// 1F1B (Narayanan et al. 2021, "Efficient Large-Scale Language Model Training on GPU Clusters
// Using Megatron-LM"; PipeDream-Flush): stage s runs min(pp - s - 1, m) warm-up forwards, then
// alternates one forward and one backward, then drains the remaining backwards. In step x
// stage s runs F(x) and B(x - (pp - 1 - s)), so stage 0 holds at most pp micro-batches.
#include "sim/schedule.h"

namespace paraplan {

TaskLists OneFOneBTasks(const ScheduleShape& shape) {
  const int64_t m = shape.micro_batches;
  const int64_t pp = shape.pp;
  TaskListBuilder builder(pp * 2 * m);
  for (int64_t s = 0; s < pp; ++s) {
    const int64_t lag = pp - 1 - s;
    for (int64_t x = 0; x < m + lag; ++x) {
      if (x < m) builder.Add(TaskKind::kForward, x, 0);
      if (x - lag >= 0) builder.Add(TaskKind::kBackward, x - lag, 0);
    }
    builder.EndStage();
  }
  return builder.Take();
}

}  // namespace paraplan
