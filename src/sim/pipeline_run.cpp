// The event loop of the pipeline simulator. Each stage's compute stream runs its list in order;
// the engine holds one of two events per stage at a time:
//   kDone  - the running task's compute ends: its output is sent (on the stage's pp stream, or
//            blocking compute when overlap_pp_comm is off), then the stage tries its next task;
//   kWake  - the stage's next task has all its inputs at this time (an arrival or the end of a
//            blocking send), so it starts.
// A stage whose next task waits for an input nobody has produced yet holds no event: the
// producer wakes it when it sends. So events ~ tasks (plus one wake per delayed start), and no
// event allocates: the payload is a 4-byte (stage, kind) code.
#include "sim/pipeline_run.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/binary_heap.h"

namespace paraplan {
namespace {

constexpr int32_t kDone = 0;
constexpr int32_t kWake = 1;

// The runner's event queue: EventQueue's order (time, then the order events were scheduled in)
// without what the runner never uses (ids, cancelling, payload slots), so it pops the same events
// in the same order; the heap's moves are EventOrder's (sim/binary_heap.h). A stage holds at most
// one event, so the heap holds at most pp keys. A pop leaves the root empty, and the event its
// handler usually schedules next (a finished task's stage starts its next one) fills it with one
// sift-down instead of a sift-down and a sift-up.
class RunQueue {
 public:
  void Schedule(Nanos time, int32_t code) {
    if (time < now_) throw std::logic_error("event scheduled in the past");
    const Key key{time, next_seq_++, code};
    if (hole_) {
      hole_ = false;
      SiftDown(key);
      return;
    }
    heap_.push_back(key);
    SiftUp(heap_.size() - 1, key);
  }

  // Pops the earliest event: its code, with Now() at its time. False when none is pending.
  bool Pop(int32_t* code) {
    if (hole_) FillHole();
    if (heap_.empty()) return false;
    now_ = heap_.front().time;
    *code = heap_.front().code;
    ++processed_;
    hole_ = true;
    return true;
  }

  Nanos Now() const { return now_; }
  int64_t Processed() const { return processed_; }

 private:
  struct Key {
    Nanos time;
    uint64_t seq;
    int32_t code;
  };
  struct Later {  // EventOrder's order (event_queue.cpp): time, then scheduling order
    bool operator()(const Key& a, const Key& b) const {
      return a.time != b.time ? a.time > b.time : a.seq > b.seq;
    }
  };
  void FillHole() {
    hole_ = false;
    const Key last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) SiftDown(last);
  }
  // Puts `key` at the root and sifts it down.
  void SiftDown(const Key& key) { HeapSiftDown(heap_, 0, key, Later{}); }
  void SiftUp(size_t i, const Key& key) { HeapSiftUp(heap_, i, key, Later{}); }

  std::vector<Key> heap_;
  bool hole_ = false;  // the root's event was popped and its place not yet filled
  uint64_t next_seq_ = 0;
  Nanos now_ = 0;
  int64_t processed_ = 0;
};

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
    busy_.assign(pp, 0);
    timed_.assign(pp, 0);
    free_at_ = options.stage_start;
    free_at_.resize(pp, 0);
    pp_free_.assign(pp, 0);
    in_flight_.assign(pp, 0);
  }

  TaskTimes Run() {
    for (int64_t s = 0; s < layout_.Stages(); ++s) {
      timed_[s] = 1;
      queue_.Schedule(free_at_[s], static_cast<int32_t>(s * 2 + kWake));
    }
    int32_t code = 0;
    while (queue_.Pop(&code)) Handle(code / 2, code % 2);
    for (int64_t s = 0; s < layout_.Stages(); ++s) {
      if (next_[s] != lists_.stage_begin[s + 1]) {
        throw std::logic_error("pipeline schedule deadlocked on stage " + std::to_string(s));
      }
    }
    times_.events = queue_.Processed();
    return std::move(times_);
  }

 private:
  void Handle(int64_t s, int32_t kind) {
    if (kind == kDone) {
      Finish(s);
    } else {
      timed_[s] = 0;
    }
    TryStart(s);
  }

  void TryStart(int64_t s) {
    if (busy_[s] || timed_[s]) return;
    const int64_t k = next_[s];
    if (k == lists_.stage_begin[s + 1]) return;
    const Task& t = lists_.tasks[k];
    const Nanos ready = InputReady(layout_, times_, s, t);
    if (ready < 0) return;  // the producer wakes this stage when it sends
    const Nanos now = queue_.Now();
    const Nanos at = std::max(ready, free_at_[s]);
    if (at > now) {
      timed_[s] = 1;
      queue_.Schedule(at, static_cast<int32_t>(s * 2 + kWake));
      return;
    }
    busy_[s] = 1;
    times_.start[k] = now;
    const Nanos end = now + layout_.Duration(s, t);
    const int64_t place = layout_.PlaceIndex(t.micro_batch, s, t.chunk);
    if (t.kind == TaskKind::kForward) {
      times_.forward_task[place] = static_cast<int32_t>(k);
      times_.peak_chunks_in_flight[s] = std::max(times_.peak_chunks_in_flight[s], ++in_flight_[s]);
    } else if (IsBackward(t.kind)) {
      times_.backward_task[place] = static_cast<int32_t>(k);
    }
    queue_.Schedule(end, static_cast<int32_t>(s * 2 + kDone));
  }

  // Sends an output from stage s to `to`; returns its arrival time.
  Nanos Send(int64_t s, const Place& to) {
    const Nanos now = queue_.Now();
    if (to.stage == s) return now;  // same GPU (pp = 1 with several chunks)
    const Nanos hop = HopNanos(options_.hops, options_.p2p, s, to.stage);
    if (!options_.overlap_pp_comm) {
      free_at_[s] = now + hop;  // the send holds the compute stream
      return now + hop;
    }
    const Nanos send_start = std::max(now, pp_free_[s]);
    pp_free_[s] = send_start + hop;
    return pp_free_[s];
  }

  void Deliver(std::vector<Nanos>& ready, const Place& to, int64_t micro_batch, Nanos at) {
    ready[layout_.PlaceIndex(micro_batch, to.stage, to.chunk)] = at;
    if (to.stage != current_) TryStart(to.stage);
  }

  void Finish(int64_t s) {
    busy_[s] = 0;
    const int64_t k = next_[s]++;
    const Task& t = lists_.tasks[k];
    const Nanos now = queue_.Now();
    current_ = s;
    if (t.kind == TaskKind::kForward) {
      const Place to = layout_.Next(s, t.chunk);
      if (to.Valid()) {
        Deliver(times_.forward_ready, to, t.micro_batch, Send(s, to));
      } else {
        times_.backward_ready[layout_.PlaceIndex(t.micro_batch, s, t.chunk)] = now;
      }
    } else if (IsBackward(t.kind)) {
      --in_flight_[s];
      const Place to = layout_.Previous(s, t.chunk);
      if (to.Valid()) Deliver(times_.backward_ready, to, t.micro_batch, Send(s, to));
    }
    current_ = -1;
  }

  const PipelineLayout& layout_;
  const TaskLists& lists_;
  const PipelineRunOptions& options_;
  RunQueue queue_;
  TaskTimes times_;
  std::vector<int64_t> next_;   // per stage: next task to run
  std::vector<uint8_t> busy_;   // per stage: a task is running (a kDone is pending)
  std::vector<uint8_t> timed_;  // per stage: a kWake is pending
  std::vector<Nanos> free_at_;  // per stage: compute stream free (start, blocking sends)
  std::vector<Nanos> pp_free_;  // per stage: pp send stream free
  std::vector<int64_t> in_flight_;
  int64_t current_ = -1;  // the stage whose task is finishing
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
