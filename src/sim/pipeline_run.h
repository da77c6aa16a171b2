// Runs a schedule's task lists on the per-stage compute and pipeline-send streams with the event
// engine, and records when every task ran. The DP stream and the optimizer come after (see
// dp_tail.h); the result is assembled in pipeline_simulator.cpp.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/pipeline_layout.h"
#include "sim/schedule.h"

namespace paraplan {

struct PipelineRunOptions {
  Nanos p2p = 0;
  bool overlap_pp_comm = true;
  std::vector<Nanos> stage_start;  // per stage: earliest compute start (exposed param gather)
  std::vector<Nanos> hops;         // PipelineInput::hops (empty: every send takes p2p)
};

// The send between neighbouring stages a and b: hops[min(a, b)], or hops[pp - 1] between the
// last stage and the first; p2p when hops is empty.
Nanos HopNanos(const std::vector<Nanos>& hops, Nanos p2p, int64_t a, int64_t b);

// What happened, in flat arrays (no per-task allocation).
struct TaskTimes {
  // Per task (index into TaskLists::tasks): compute start. The end is start + duration (TaskEnd);
  // only the start is stored, to keep 2M-task runs small (memory traffic dominates them).
  std::vector<Nanos> start;
  Nanos blocking_send = 0;  // p2p when sends hold the compute stream (overlap_pp_comm off)
  std::vector<Nanos> hops;  // the run's PipelineRunOptions::hops (blocking sends per hop)
  // Per place (PipelineLayout::PlaceIndex): when the activations of the previous place arrived
  // (forward input) and when the output gradient arrived (backward input); -1 until known.
  std::vector<Nanos> forward_ready;
  std::vector<Nanos> backward_ready;
  std::vector<int32_t> forward_task;           // per place: the F task's index
  std::vector<int32_t> backward_task;          // per place: the B (full or input) task's index
  std::vector<int64_t> peak_chunks_in_flight;  // per stage: most (micro-batch, chunk) held
  int64_t events = 0;  // tasks run (the event engine's run also counted its wake-ups)
};

// Runs every task; throws std::logic_error if the lists deadlock (a generator bug).
TaskTimes RunPipeline(const PipelineLayout& layout, const TaskLists& lists,
                      const PipelineRunOptions& options);

// The same run under PyTorch's multi-stage runtime: every rank walks the time steps `steps`
// (PytorchInterleavedSteps) and waits at the end of each on that step's batched sends and
// receives (pipeline_run_lockstep.cpp). Sends never hold the compute stream otherwise
// (blocking_send = 0): the step's wait is where they cost.
TaskTimes RunPipelineLockstep(const PipelineLayout& layout, const TaskLists& lists,
                              const std::vector<int32_t>& steps, const PipelineRunOptions& options);

// When the inputs of task `t` on `stage` arrived (0 for a route's first forward and for W, which
// follows its B on the same stream); -1 while not yet known.
Nanos InputReady(const PipelineLayout& layout, const TaskTimes& times, int64_t stage,
                 const Task& t);

// The stage owning flat task index `task`.
int64_t StageOfTask(const TaskLists& lists, int64_t task);

// When task k (on `stage`) finished computing.
inline Nanos TaskEnd(const PipelineLayout& layout, const TaskLists& lists, const TaskTimes& times,
                     int64_t stage, int64_t k) {
  return times.start[k] + layout.Duration(stage, lists.tasks[k]);
}

// When the compute stream was free again after task k: its end plus a blocking send.
Nanos TaskDone(const PipelineLayout& layout, const TaskLists& lists, const TaskTimes& times,
               int64_t stage, int64_t k);

}  // namespace paraplan
