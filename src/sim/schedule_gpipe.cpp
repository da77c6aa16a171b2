// GPipe (Huang et al. 2019, "GPipe: Efficient Training of Giant Neural Networks using Pipeline
// Parallelism"): every stage runs all m forwards, then all m backwards, the last micro-batch's
// first, so each stage holds the activations of all m micro-batches at its peak.
#include "sim/schedule.h"

namespace paraplan {

TaskLists GpipeTasks(const ScheduleShape& shape) {
  const int64_t m = shape.micro_batches;
  TaskListBuilder builder(shape.pp * 2 * m);
  for (int64_t s = 0; s < shape.pp; ++s) {
    for (int64_t i = 0; i < m; ++i) builder.Add(TaskKind::kForward, i, 0);
    for (int64_t i = m - 1; i >= 0; --i) builder.Add(TaskKind::kBackward, i, 0);
    builder.EndStage();
  }
  return builder.Take();
}

}  // namespace paraplan
