// The pipeline run under PyTorch's multi-stage runtime (PipelineScheduleMulti._step_microbatches,
// torch.distributed.pipelining as torchtitan ran it in Dec 2024). Every rank walks the same grid
// of time steps (schedule_pytorch_steps.cpp); in step t it runs its action, then batches the
// sends of that action with the receives of what its neighbours run in step t into one
// batch_isend_irecv and waits on it before step t + 1. A rank therefore leaves step t only when
// each neighbour it exchanges with has finished computing step t and the transfer is done:
//   gate(r, t) = max(end(r, t), end(q, t) for every q exchanging with r in step t) + p2p,
// with end(r, t) = gate(r, t - 1) for an idle step. No event queue is needed: the steps are
// processed in order, all ranks at once.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/pipeline_run.h"

namespace paraplan {

TaskTimes RunPipelineLockstep(const PipelineLayout& layout, const TaskLists& lists,
                              const std::vector<int32_t>& steps,
                              const PipelineRunOptions& options) {
  const int64_t pp = layout.Stages();
  const size_t places = static_cast<size_t>(layout.Places());
  TaskTimes times;
  times.start.assign(lists.tasks.size(), 0);
  times.forward_ready.assign(places, -1);
  times.backward_ready.assign(places, -1);
  times.forward_task.assign(places, -1);
  times.backward_task.assign(places, -1);
  times.peak_chunks_in_flight.assign(static_cast<size_t>(pp), 0);

  int32_t last_step = -1;
  for (int32_t s : steps) last_step = std::max(last_step, s);
  std::vector<int64_t> next(lists.stage_begin.begin(), lists.stage_begin.end() - 1);
  std::vector<Nanos> gate = options.stage_start;
  gate.resize(static_cast<size_t>(pp), 0);
  std::vector<Nanos> end(static_cast<size_t>(pp), 0);
  std::vector<int64_t> sender(static_cast<size_t>(pp), -1);  // this step's sending task, or -1
  std::vector<int64_t> in_flight(static_cast<size_t>(pp), 0);
  std::vector<Nanos> exchanges(static_cast<size_t>(pp), 0);  // the slowest hop it exchanged on
  std::vector<Nanos> wait(static_cast<size_t>(pp), 0);

  for (int32_t t = 0; t <= last_step; ++t) {
    for (int64_t s = 0; s < pp; ++s) {  // compute: each rank's action of step t
      end[s] = gate[s];
      sender[s] = -1;
      for (; next[s] < lists.stage_begin[s + 1] && steps[next[s]] == t; ++next[s]) {
        const int64_t k = next[s];
        const Task& task = lists.tasks[k];
        const int64_t place = layout.PlaceIndex(task.micro_batch, s, task.chunk);
        const Nanos ready = InputReady(layout, times, s, task);
        if (task.kind == TaskKind::kForward) {
          times.forward_task[place] = static_cast<int32_t>(k);
          times.peak_chunks_in_flight[s] = std::max(times.peak_chunks_in_flight[s], ++in_flight[s]);
          sender[s] = k;
        } else if (IsBackward(task.kind)) {
          times.backward_task[place] = static_cast<int32_t>(k);
          --in_flight[s];
          sender[s] = k;
        }
        if (ready < 0) {
          throw std::logic_error("lock-step pipeline: stage " + std::to_string(s) +
                                 " runs a task before its input exists (step " + std::to_string(t) +
                                 ")");
        }
        times.start[k] = std::max(end[s], ready);
        end[s] = times.start[k] + layout.Duration(s, task);
      }
    }
    // communication: every send of step t, matched by its receiver's receive in step t
    std::fill(exchanges.begin(), exchanges.end(), 0);
    for (int64_t s = 0; s < pp; ++s) wait[s] = end[s];
    for (int64_t s = 0; s < pp; ++s) {
      if (sender[s] < 0) continue;
      const Task& task = lists.tasks[sender[s]];
      const bool forward = task.kind == TaskKind::kForward;
      const Place to = layout.Destination(s, task);
      if (forward && !to.Valid()) {  // the last place: its backward starts here
        times.backward_ready[layout.PlaceIndex(task.micro_batch, s, task.chunk)] = end[s];
        continue;
      }
      if (!to.Valid()) continue;
      Nanos arrival = end[s];
      if (to.stage != s) {
        const Nanos hop = HopNanos(options.hops, options.p2p, s, to.stage);
        arrival = std::max(end[s], end[to.stage]) + hop;
        exchanges[s] = std::max(exchanges[s], hop);
        exchanges[to.stage] = std::max(exchanges[to.stage], hop);
        wait[s] = std::max(wait[s], end[to.stage]);
        wait[to.stage] = std::max(wait[to.stage], end[s]);
      }
      auto& ready = forward ? times.forward_ready : times.backward_ready;
      ready[layout.PlaceIndex(task.micro_batch, to.stage, to.chunk)] = arrival;
    }
    for (int64_t s = 0; s < pp; ++s) gate[s] = wait[s] + exchanges[s];
  }
  for (int64_t s = 0; s < pp; ++s) {
    if (next[s] != lists.stage_begin[s + 1]) {
      throw std::logic_error("lock-step pipeline: stage " + std::to_string(s) +
                             " has tasks after the last step");
    }
  }
  times.events = static_cast<int64_t>(lists.tasks.size());
  return times;
}

}  // namespace paraplan
