#include "sim/schedule.h"

#include <cstdint>

#include "core/error.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

void CheckShape(Schedule schedule, const ScheduleShape& shape) {
  const std::string name = ToString(schedule);
  RequireInput(shape.pp >= 1, KnobName(Knob::kPp), "must be >= 1, got " + std::to_string(shape.pp));
  RequireInput(shape.vpp >= 1, KnobName(Knob::kVpp),
               "must be >= 1, got " + std::to_string(shape.vpp));
  RequireInput(shape.micro_batches >= 1, "micro_batches",
               "must be >= 1, got " + std::to_string(shape.micro_batches));
  // Task indices and micro-batch ids are 32-bit, chunks 16-bit; tasks <= 3 per (mb, chunk).
  RequireInput(
      shape.pp <= INT16_MAX && shape.vpp <= INT16_MAX && shape.pp * shape.vpp <= INT16_MAX &&
          shape.micro_batches <= INT32_MAX / 3 / (shape.pp * shape.vpp),
      "micro_batches", "pipeline too large to simulate (pp * vpp * micro_batches * 3 tasks)");
  if (schedule == Schedule::kInterleaved && shape.vpp > 1) {
    RequireInput(shape.micro_batches >= shape.pp, "micro_batches",
                 "the interleaved schedule needs micro_batches >= pp (" + std::to_string(shape.pp) +
                     "), got " + std::to_string(shape.micro_batches));
  }
  if (schedule == Schedule::kDualPipe) {
    RequireInput(shape.pp % 2 == 0, KnobName(Knob::kPp),
                 "dualpipe needs an even pp, got " + std::to_string(shape.pp));
    RequireInput(shape.micro_batches % 2 == 0 && shape.micro_batches >= 2 * shape.pp,
                 "micro_batches",
                 "dualpipe needs an even micro_batches >= 2 * pp (" + std::to_string(2 * shape.pp) +
                     "), got " + std::to_string(shape.micro_batches));
  }
}

}  // namespace

int64_t ChunksPerStage(Schedule schedule, int64_t vpp) {
  if (schedule == Schedule::kInterleaved) return vpp;
  if (schedule == Schedule::kDualPipe) return 2;
  return 1;
}

TaskLists GenerateSchedule(Schedule schedule, const ScheduleShape& shape) {
  CheckShape(schedule, shape);
  switch (schedule) {
    case Schedule::kGpipe:
      return GpipeTasks(shape);
    case Schedule::k1F1B:
      return OneFOneBTasks(shape);
    case Schedule::kInterleaved:
      // With one chunk per stage the interleaved schedule is plain 1F1B.
      return shape.vpp > 1 ? InterleavedTasks(shape) : OneFOneBTasks(shape);
    case Schedule::kZeroBubble:
      return ZeroBubbleTasks(shape);
    case Schedule::kDualPipe:
      return DualPipeTasks(shape);
  }
  return OneFOneBTasks(shape);
}

void InsertRecompute(TaskLists& lists, int64_t chunks, const std::vector<bool>& has_recompute) {
  TaskListBuilder builder(static_cast<int64_t>(lists.tasks.size()) * 3 / 2);
  for (int64_t s = 0; s < lists.Stages(); ++s) {
    for (int64_t i = lists.stage_begin[s]; i < lists.stage_begin[s + 1]; ++i) {
      const Task& t = lists.tasks[i];
      if (IsBackward(t.kind) && has_recompute[s * chunks + t.chunk]) {
        builder.Add(TaskKind::kRecompute, t.micro_batch, t.chunk);
      }
      builder.Add(t.kind, t.micro_batch, t.chunk);
    }
    builder.EndStage();
  }
  lists = builder.Take();
}

char TaskLetter(TaskKind kind) {
  switch (kind) {
    case TaskKind::kForward:
      return 'F';
    case TaskKind::kBackward:
    case TaskKind::kBackwardInput:
      return 'B';
    case TaskKind::kWeight:
      return 'W';
    case TaskKind::kRecompute:
      return 'R';
  }
  return '?';
}

std::string TaskName(const Task& task) {
  return std::string(1, TaskLetter(task.kind)) + std::to_string(task.micro_batch);
}

TaskListBuilder::TaskListBuilder(int64_t reserve_tasks) {
  lists_.tasks.reserve(static_cast<size_t>(reserve_tasks));
  lists_.stage_begin.push_back(0);
}

void TaskListBuilder::EndStage() {
  lists_.stage_begin.push_back(static_cast<int64_t>(lists_.tasks.size()));
}

TaskLists TaskListBuilder::Take() {
  return std::move(lists_);
}

}  // namespace paraplan
