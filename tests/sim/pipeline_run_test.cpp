// RunPipeline walks each stage as far as its inputs allow, without a clock (pipeline_run.cpp).
// Here the run it replaced, the discrete-event one (the engine's (time, scheduling order) queue,
// sim/event_queue.h, with the same handlers), is the reference: on random shapes, costs, hops and
// stream options of every schedule, both give the same start of every task, the same arrival
// times and producers of every place and the same peaks, task for task.
#include "sim/pipeline_run.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <stdexcept>
#include <string>

#include "sim/event_queue.h"
#include "sim/pipeline_layout.h"

using namespace paraplan;

namespace {

constexpr int32_t kDone = 0;
constexpr int32_t kWake = 1;

// The event-driven run as pipeline_run.cpp had it through stop 43: a stage holds a kDone (its
// task ends) or a kWake (its next task's inputs are there) event at a time.
class EventRunner {
 public:
  EventRunner(const PipelineLayout& layout, const TaskLists& lists,
              const PipelineRunOptions& options)
      : layout_(layout), lists_(lists), options_(options) {
    const auto places = static_cast<size_t>(layout.Places());
    const auto pp = static_cast<size_t>(layout.Stages());
    times_.start.resize(lists.tasks.size());
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
    while (queue_.RunOne([this](int32_t code) { Handle(code / 2, code % 2); })) {
    }
    for (int64_t s = 0; s < layout_.Stages(); ++s) {
      if (next_[s] != lists_.stage_begin[s + 1]) throw std::logic_error("deadlock");
    }
    return times_;
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
    if (ready < 0) return;
    const Nanos now = queue_.Now();
    const Nanos at = std::max(ready, free_at_[s]);
    if (at > now) {
      timed_[s] = 1;
      queue_.Schedule(at, static_cast<int32_t>(s * 2 + kWake));
      return;
    }
    busy_[s] = 1;
    times_.start[k] = now;
    const int64_t place = layout_.PlaceIndex(t.micro_batch, s, t.chunk);
    if (t.kind == TaskKind::kForward) {
      times_.forward_task[place] = static_cast<int32_t>(k);
      times_.peak_chunks_in_flight[s] = std::max(times_.peak_chunks_in_flight[s], ++in_flight_[s]);
    } else if (IsBackward(t.kind)) {
      times_.backward_task[place] = static_cast<int32_t>(k);
    }
    queue_.Schedule(now + layout_.Duration(s, t), static_cast<int32_t>(s * 2 + kDone));
  }

  Nanos Send(int64_t s, const Place& to) {
    const Nanos now = queue_.Now();
    if (to.stage == s) return now;
    const Nanos hop = HopNanos(options_.hops, options_.p2p, s, to.stage);
    if (!options_.overlap_pp_comm) {
      free_at_[s] = now + hop;
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
    current_ = s;
    if (t.kind == TaskKind::kForward) {
      const Place to = layout_.Next(s, t.chunk);
      if (to.Valid()) {
        Deliver(times_.forward_ready, to, t.micro_batch, Send(s, to));
      } else {
        times_.backward_ready[layout_.PlaceIndex(t.micro_batch, s, t.chunk)] = queue_.Now();
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
  EventQueue<int32_t> queue_;
  TaskTimes times_;
  std::vector<int64_t> next_;
  std::vector<uint8_t> busy_;
  std::vector<uint8_t> timed_;
  std::vector<Nanos> free_at_;
  std::vector<Nanos> pp_free_;
  std::vector<int64_t> in_flight_;
  int64_t current_ = -1;
};

struct RunCase {
  PipelineInput input;
  PipelineRunOptions options;
};

// A random valid shape of `schedule`, costs drawn from a few values (ties between stages are
// where an order-dependent run would differ), zeros included.
RunCase RandomCase(Schedule schedule, std::mt19937_64& rng) {
  auto pick = [&rng](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  RunCase c;
  PipelineInput& in = c.input;
  in.schedule = schedule;
  in.pp = pick(1, 6);
  in.vpp = 1;
  if (schedule == Schedule::kInterleaved) {
    in.pp = pick(2, 6);
    in.vpp = pick(2, 4);
  }
  if (schedule == Schedule::kDualPipe) in.pp = 2 * pick(1, 3);
  in.micro_batches = schedule == Schedule::kDualPipe ? 2 * in.pp * pick(1, 3) : pick(in.pp, 20);
  const int64_t chunks = schedule == Schedule::kInterleaved ? in.vpp : 1;
  const bool recompute = pick(0, 2) == 0;
  const Nanos scale = pick(0, 1) == 0 ? 10 : 1000;
  in.stages.assign(static_cast<size_t>(in.pp), StageCost{});
  for (StageCost& stage : in.stages) {
    for (int64_t k = 0; k < chunks; ++k) {
      ChunkCost cost;
      cost.forward = scale * pick(0, 4);
      cost.backward_input = scale * pick(0, 6);
      cost.backward_weight = scale * pick(0, 3);
      cost.recompute = recompute ? scale * pick(0, 2) : 0;
      stage.chunks.push_back(cost);
    }
  }
  c.options.p2p = scale * pick(0, 2);
  c.options.overlap_pp_comm = pick(0, 1) == 1;
  c.options.stage_start.resize(static_cast<size_t>(in.pp));
  for (Nanos& s : c.options.stage_start) s = pick(0, 1) == 0 ? 0 : scale * pick(1, 3);
  if (pick(0, 1) == 1) {
    for (int64_t b = 0; b < in.pp; ++b) c.options.hops.push_back(scale * pick(0, 3));
  }
  return c;
}

}  // namespace

TEST_CASE("RunPipeline gives the discrete-event run's times, task for task", "[sim]") {
  std::mt19937_64 rng(20261207);
  const Schedule schedules[] = {Schedule::kGpipe, Schedule::k1F1B, Schedule::kInterleaved,
                                Schedule::kZeroBubble, Schedule::kDualPipe};
  int64_t compared = 0;
  int deadlocks = 0;
  for (int trial = 0; trial < 60; ++trial) {
    for (Schedule schedule : schedules) {
      const RunCase c = RandomCase(schedule, rng);
      const PipelineLayout layout(c.input);
      TaskLists lists =
          GenerateSchedule(schedule, ScheduleShape{c.input.pp, c.input.vpp, c.input.micro_batches});
      const std::vector<bool> recompute = layout.HasRecompute();
      if (std::find(recompute.begin(), recompute.end(), true) != recompute.end()) {
        InsertRecompute(lists, layout.Chunks(), recompute);
      }
      INFO("trial " << trial << ", schedule " << static_cast<int>(schedule) << ", pp " << c.input.pp
                    << ", vpp " << c.input.vpp << ", m " << c.input.micro_batches << ", overlap "
                    << c.options.overlap_pp_comm);
      TaskTimes events;
      try {
        events = EventRunner(layout, lists, c.options).Run();
      } catch (const std::logic_error&) {  // a shape the generator does not serve: both stop
        CHECK_THROWS_WITH(RunPipeline(layout, lists, c.options), Catch::Contains("deadlocked"));
        ++deadlocks;
        continue;
      }
      const TaskTimes walked = RunPipeline(layout, lists, c.options);
      REQUIRE(walked.start == events.start);
      REQUIRE(walked.forward_ready == events.forward_ready);
      REQUIRE(walked.backward_ready == events.backward_ready);
      REQUIRE(walked.forward_task == events.forward_task);
      REQUIRE(walked.backward_task == events.backward_task);
      REQUIRE(walked.peak_chunks_in_flight == events.peak_chunks_in_flight);
      CHECK(walked.events == static_cast<int64_t>(lists.tasks.size()));
      compared += static_cast<int64_t>(lists.tasks.size());
    }
  }
  CHECK(compared > 10000);
  CHECK(deadlocks < 30);
}

TEST_CASE("RunPipeline reports a schedule that deadlocks", "[sim]") {
  PipelineInput in;
  in.pp = 2;
  in.micro_batches = 1;
  in.stages.assign(2, StageCost{});
  for (StageCost& stage : in.stages) stage.chunks.assign(1, ChunkCost{10, 20, 0, 0});
  const PipelineLayout layout(in);
  // Stage 0 runs B before its F: B waits on stage 1's B, which waits on stage 0's F.
  TaskLists lists;
  lists.tasks = {Task{0, 0, TaskKind::kBackward}, Task{0, 0, TaskKind::kForward},
                 Task{0, 0, TaskKind::kForward}, Task{0, 0, TaskKind::kBackward}};
  lists.stage_begin = {0, 2, 4};
  CHECK_THROWS_WITH(RunPipeline(layout, lists, PipelineRunOptions{}),
                    Catch::Contains("deadlocked on stage 0"));
}
