// Pipeline schedules as generators of per-stage ordered task lists. A generator sees only the
// shape (pp, vpp, micro-batches), never the costs: each stage's compute stream runs its list in
// order, and the simulator supplies the times. One generator per file (schedule_*.cpp), all with
// the ScheduleGenerator signature.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

enum class TaskKind : uint8_t {
  kForward,        // F
  kBackward,       // B: full backward (input and weight gradients)
  kBackwardInput,  // B: input-gradient half of a split backward (zero-bubble, DualPipe)
  kWeight,         // W: weight-gradient half of a split backward
  kRecompute,      // R: forward recomputation right before a backward
};

// A B task, full or the input-gradient half: it consumes the next place's gradient and sends
// its own to the previous place.
inline bool IsBackward(TaskKind kind) {
  return kind == TaskKind::kBackward || kind == TaskKind::kBackwardInput;
}

struct Task {
  int32_t micro_batch = 0;
  int16_t chunk = 0;  // model chunk on this stage (interleaved: 0..vpp-1; DualPipe: direction)
  TaskKind kind = TaskKind::kForward;
};

// All stages' lists in one flat vector: stage s owns tasks[stage_begin[s] .. stage_begin[s+1]).
struct TaskLists {
  std::vector<Task> tasks;
  std::vector<int64_t> stage_begin;  // size pp + 1

  int64_t Stages() const { return static_cast<int64_t>(stage_begin.size()) - 1; }
};

struct ScheduleShape {
  int64_t pp = 1;
  int64_t vpp = 1;  // model chunks per stage (interleaved only; DualPipe always holds 2)
  int64_t micro_batches = 1;
};

using ScheduleGenerator = TaskLists (*)(const ScheduleShape&);

// Huang et al. 2019 (GPipe): all forwards, then all backwards in reverse order.
TaskLists GpipeTasks(const ScheduleShape& shape);
// Narayanan et al. 2021 (PipeDream-Flush / Megatron 1F1B): pp - s - 1 warm-up forwards.
TaskLists OneFOneBTasks(const ScheduleShape& shape);
// Narayanan et al. 2021 (Megatron interleaved 1F1B, vpp chunks per stage).
TaskLists InterleavedTasks(const ScheduleShape& shape);
// Qi et al. 2023 (zero bubble, ZB-H1): backward split into B and W, W deferred, 1F1B memory.
TaskLists ZeroBubbleTasks(const ScheduleShape& shape);
// DeepSeek-AI 2024 (DeepSeek-V3 report, DualPipe): micro-batches fed from both ends.
TaskLists DualPipeTasks(const ScheduleShape& shape);

// The time step at which PyTorch's multi-stage runtime runs each task of InterleavedTasks' lists
// (recompute tasks inserted or not; a recompute shares its backward's step). The lists must be
// PyTorch's ScheduleInterleaved1F1B order, which they are when micro_batches is a multiple of pp;
// otherwise std::logic_error (schedule_pytorch_steps.cpp).
std::vector<int32_t> PytorchInterleavedSteps(const TaskLists& lists, const ScheduleShape& shape);

// The generator of `schedule`; checks the shape against the schedule's rules first (InputError
// naming the rule: interleaved needs vpp > 1 and micro_batches >= pp; DualPipe needs an even pp
// and an even micro_batches >= 2 * pp; every schedule needs pp, vpp, micro_batches >= 1).
TaskLists GenerateSchedule(Schedule schedule, const ScheduleShape& shape);

// Model chunks a stage holds under `schedule` (vpp for interleaved, 2 for DualPipe, else 1).
int64_t ChunksPerStage(Schedule schedule, int64_t vpp);

// Inserts an R task right before every B (full or input) of the chunks for which
// `has_recompute[stage * chunks + chunk]` is true.
void InsertRecompute(TaskLists& lists, int64_t chunks, const std::vector<bool>& has_recompute);

// "F3", "B3", "W3", "R3".
std::string TaskName(const Task& task);
char TaskLetter(TaskKind kind);

// Appends tasks stage by stage; used by the generators.
class TaskListBuilder {
 public:
  explicit TaskListBuilder(int64_t reserve_tasks);
  // Inline: the generators call it once per task, on every simulated plan.
  void Add(TaskKind kind, int64_t micro_batch, int64_t chunk) {
    lists_.tasks.push_back(
        Task{static_cast<int32_t>(micro_batch), static_cast<int16_t>(chunk), kind});
  }
  void EndStage();  // closes the current stage's list
  TaskLists Take();

 private:
  TaskLists lists_;
};

}  // namespace paraplan
