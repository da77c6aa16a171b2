#include "sim/critical_path.h"

#include <algorithm>

namespace paraplan {
namespace {

// The task whose output `task` on `stage` consumed, and when that input arrived; -1 if none.
int64_t Producer(const PipelineLayout& layout, const TaskTimes& times, int64_t stage,
                 const Task& task, Nanos* arrival) {
  const int64_t place = layout.PlaceIndex(task.micro_batch, stage, task.chunk);
  if (task.kind == TaskKind::kForward) {
    const Place from = layout.Previous(stage, task.chunk);
    if (!from.Valid()) return -1;
    *arrival = times.forward_ready[place];
    return times.forward_task[layout.PlaceIndex(task.micro_batch, from.stage, from.chunk)];
  }
  if (task.kind == TaskKind::kWeight) return -1;
  *arrival = times.backward_ready[place];
  const Place from = layout.Next(stage, task.chunk);
  if (!from.Valid()) return times.forward_task[place];
  return times.backward_task[layout.PlaceIndex(task.micro_batch, from.stage, from.chunk)];
}

}  // namespace

CriticalPath WalkCriticalPath(const PipelineLayout& layout, const TaskLists& lists,
                              const TaskTimes& times, int64_t last_task) {
  CriticalPath path;
  int64_t k = last_task;
  while (k >= 0) {
    path.tasks.push_back(k);
    const int64_t stage = StageOfTask(lists, k);
    const bool has_previous = k > lists.stage_begin[stage];
    const Nanos previous_done = has_previous ? TaskDone(layout, lists, times, stage, k - 1) : -1;
    Nanos arrival = -1;
    const int64_t producer = Producer(layout, times, stage, lists.tasks[k], &arrival);
    if (producer >= 0 && arrival >= previous_done) {
      path.pp_comm +=
          arrival - TaskEnd(layout, lists, times, StageOfTask(lists, producer), producer);
      k = producer;
    } else if (has_previous) {
      path.pp_comm += previous_done - TaskEnd(layout, lists, times, stage, k - 1);
      k = k - 1;
    } else {
      k = -1;
    }
  }
  std::reverse(path.tasks.begin(), path.tasks.end());
  return path;
}

}  // namespace paraplan
