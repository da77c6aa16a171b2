// The pipeline simulator's run. Each stage's compute stream runs its list in order, a task
// starting when the stream is free (the previous task's end, or its blocking send's) and its input
// has arrived; a finished task's output goes out on the stage's pp send stream (in the stage's
// list order) or, with overlap_pp_comm off, holds the compute stream. Every time is thus fixed by
// the tasks before it on its stage and by its producer, never by the order in which stages are
// visited, so the run needs no clock and no event queue: it walks each stage as far as its inputs
// are known, and a stage that stopped at a missing input is walked again when its producer
// delivers one (a stack of such stages). This is the discrete-event run of the earlier engine
// (sim/event_queue.h's order; tests/sim/pipeline_run_test.cpp keeps it as EventRunner) without
// the heap: the same start and arrival times, task for task (that test compares them).
#include "sim/pipeline_run.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace paraplan {
namespace {

class Runner {
 public:
  Runner(const PipelineLayout& layout, const TaskLists& lists, const PipelineRunOptions& options)
      : layout_(layout), lists_(lists), options_(options) {
    const size_t tasks = lists.tasks.size();
    const size_t places = static_cast<size_t>(layout.Places());
    const size_t pp = static_cast<size_t>(layout.Stages());
    times_.start.resize(tasks);
    times_.blocking_send = options.overlap_pp_comm ? 0 : options.p2p;
    if (!options.overlap_pp_comm) times_.hops = options.hops;
    times_.forward_ready.assign(places, -1);
    times_.backward_ready.assign(places, -1);
    times_.forward_task.assign(places, -1);
    times_.backward_task.assign(places, -1);
    times_.peak_chunks_in_flight.assign(pp, 0);
    next_.assign(lists.stage_begin.begin(), lists.stage_begin.end() - 1);
    waiting_.assign(pp, 0);
    free_at_ = options.stage_start;
    free_at_.resize(pp, 0);
    pp_free_.assign(pp, 0);
    in_flight_.assign(pp, 0);
  }

  TaskTimes Run() {
    const int64_t pp = layout_.Stages();
    stack_.reserve(static_cast<size_t>(pp));
    for (int64_t s = pp - 1; s >= 0; --s) stack_.push_back(s);
    while (!stack_.empty()) {
      const int64_t s = stack_.back();
      stack_.pop_back();
      Advance(s);
    }
    for (int64_t s = 0; s < pp; ++s) {
      if (next_[s] != lists_.stage_begin[s + 1]) {
        throw std::logic_error("pipeline schedule deadlocked on stage " + std::to_string(s));
      }
    }
    times_.events = static_cast<int64_t>(lists_.tasks.size());
    return std::move(times_);
  }

 private:
  // Runs stage s's tasks until its list ends or its next task's input has not arrived yet.
  void Advance(int64_t s) {
    const int64_t stop = lists_.stage_begin[s + 1];
    for (int64_t k = next_[s]; k < stop; k = ++next_[s]) {
      const Task& t = lists_.tasks[k];
      const Nanos ready = InputReady(layout_, times_, s, t);
      if (ready < 0) {  // the producer's Deliver walks this stage again
        waiting_[s] = 1;
        return;
      }
      const Nanos start = std::max(ready, free_at_[s]);
      times_.start[k] = start;
      const Nanos end = start + layout_.Duration(s, t);
      free_at_[s] = end;
      const int64_t place = layout_.PlaceIndex(t.micro_batch, s, t.chunk);
      if (t.kind == TaskKind::kForward) {
        times_.forward_task[place] = static_cast<int32_t>(k);
        times_.peak_chunks_in_flight[s] =
            std::max(times_.peak_chunks_in_flight[s], ++in_flight_[s]);
        const Place to = layout_.Next(s, t.chunk);
        if (to.Valid()) {
          Deliver(times_.forward_ready, to, t.micro_batch, Send(s, to, end));
        } else {
          times_.backward_ready[place] = end;
        }
      } else if (IsBackward(t.kind)) {
        times_.backward_task[place] = static_cast<int32_t>(k);
        --in_flight_[s];
        const Place to = layout_.Previous(s, t.chunk);
        if (to.Valid()) Deliver(times_.backward_ready, to, t.micro_batch, Send(s, to, end));
      }
    }
  }

  // Sends an output from stage s, computed by `end`, to `to`; returns its arrival time.
  Nanos Send(int64_t s, const Place& to, Nanos end) {
    if (to.stage == s) return end;  // same GPU (pp = 1 with several chunks)
    const Nanos hop = HopNanos(options_.hops, options_.p2p, s, to.stage);
    if (!options_.overlap_pp_comm) {
      free_at_[s] = end + hop;  // the send holds the compute stream
      return end + hop;
    }
    const Nanos send_start = std::max(end, pp_free_[s]);
    pp_free_[s] = send_start + hop;
    return pp_free_[s];
  }

  void Deliver(std::vector<Nanos>& ready, const Place& to, int64_t micro_batch, Nanos at) {
    ready[layout_.PlaceIndex(micro_batch, to.stage, to.chunk)] = at;
    if (waiting_[to.stage]) {
      waiting_[to.stage] = 0;
      stack_.push_back(to.stage);
    }
  }

  const PipelineLayout& layout_;
  const TaskLists& lists_;
  const PipelineRunOptions& options_;
  TaskTimes times_;
  std::vector<int64_t> next_;     // per stage: next task to run
  std::vector<uint8_t> waiting_;  // per stage: stopped at an input not yet delivered
  std::vector<Nanos> free_at_;    // per stage: compute stream free (start, last end, blocking send)
  std::vector<Nanos> pp_free_;    // per stage: pp send stream free
  std::vector<int64_t> in_flight_;
  std::vector<int64_t> stack_;  // stages to walk again
};

}  // namespace

TaskTimes RunPipeline(const PipelineLayout& layout, const TaskLists& lists,
                      const PipelineRunOptions& options) {
  return Runner(layout, lists, options).Run();
}

Nanos InputReady(const PipelineLayout& layout, const TaskTimes& times, int64_t stage,
                 const Task& t) {
  const int64_t place = layout.PlaceIndex(t.micro_batch, stage, t.chunk);
  switch (t.kind) {
    case TaskKind::kForward:
      return layout.IsFirst(stage, t.chunk) ? 0 : times.forward_ready[place];
    case TaskKind::kBackward:
    case TaskKind::kBackwardInput:
    case TaskKind::kRecompute:
      return times.backward_ready[place];
    case TaskKind::kWeight:
      return 0;  // its B ran earlier on this stream
  }
  return 0;
}

Nanos TaskDone(const PipelineLayout& layout, const TaskLists& lists, const TaskTimes& times,
               int64_t stage, int64_t k) {
  const Nanos end = TaskEnd(layout, lists, times, stage, k);
  if (times.blocking_send == 0) return end;
  const Task& t = lists.tasks[k];
  const Place to = layout.Destination(stage, t);
  if (!to.Valid() || to.stage == stage) return end;
  return end +
         (times.hops.empty() ? times.blocking_send : HopNanos(times.hops, 0, stage, to.stage));
}

Nanos HopNanos(const std::vector<Nanos>& hops, Nanos p2p, int64_t a, int64_t b) {
  if (hops.empty()) return p2p;
  const int64_t pp = static_cast<int64_t>(hops.size());
  const int64_t lo = std::min(a, b), hi = std::max(a, b);
  return hops[static_cast<size_t>(hi - lo == 1 ? lo : pp - 1)];
}

int64_t StageOfTask(const TaskLists& lists, int64_t task) {
  auto it = std::upper_bound(lists.stage_begin.begin(), lists.stage_begin.end(), task);
  return static_cast<int64_t>(it - lists.stage_begin.begin()) - 1;
}

}  // namespace paraplan
