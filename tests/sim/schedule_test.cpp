#include "sim/schedule.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <tuple>

#include "core/error.h"

using namespace paraplan;

namespace {

std::string StageString(const TaskLists& lists, int64_t s) {
  std::string out;
  for (int64_t k = lists.stage_begin[s]; k < lists.stage_begin[s + 1]; ++k) {
    if (!out.empty()) out += ' ';
    out += TaskName(lists.tasks[k]);
  }
  return out;
}

// Every (micro-batch, chunk) is forwarded once and backwarded once on every stage (W once when
// the backward is split), the F before the B and the B before the W.
void CheckComplete(const TaskLists& lists, int64_t m, int64_t chunks, bool dual) {
  for (int64_t s = 0; s < lists.Stages(); ++s) {
    std::map<std::tuple<int, int, int>, int64_t> position;  // (kind, mb, chunk) -> index
    for (int64_t k = lists.stage_begin[s]; k < lists.stage_begin[s + 1]; ++k) {
      const Task& t = lists.tasks[k];
      const int kind = t.kind == TaskKind::kBackwardInput ? static_cast<int>(TaskKind::kBackward)
                                                          : static_cast<int>(t.kind);
      INFO("stage " << s << " task " << TaskName(t) << " chunk " << t.chunk);
      CHECK(position.emplace(std::make_tuple(kind, t.micro_batch, t.chunk), k).second);
      if (t.kind == TaskKind::kWeight) {
        const auto b =
            position.find({static_cast<int>(TaskKind::kBackward), t.micro_batch, t.chunk});
        CHECK(b != position.end());
      }
      if (t.kind != TaskKind::kForward) {
        CHECK(position.count({static_cast<int>(TaskKind::kForward), t.micro_batch, t.chunk}));
      }
    }
    const int64_t per_stage = dual ? m : m * chunks;  // DualPipe: each micro-batch one direction
    int64_t forwards = 0;
    int64_t backwards = 0;
    for (const auto& [key, index] : position) {
      forwards += std::get<0>(key) == static_cast<int>(TaskKind::kForward);
      backwards += std::get<0>(key) == static_cast<int>(TaskKind::kBackward);
    }
    CHECK(forwards == per_stage);
    CHECK(backwards == per_stage);
  }
}

}  // namespace

TEST_CASE("1F1B stage lists follow Megatron's warm-up, steady and cool-down", "[sim]") {
  const TaskLists lists = GenerateSchedule(Schedule::k1F1B, {4, 1, 8});
  REQUIRE(lists.Stages() == 4);
  CHECK(StageString(lists, 0) == "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7");
  CHECK(StageString(lists, 3) == "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7");
  CheckComplete(lists, 8, 1, false);
}

TEST_CASE("GPipe runs all forwards then all backwards", "[sim]") {
  const TaskLists lists = GenerateSchedule(Schedule::kGpipe, {2, 1, 3});
  CHECK(StageString(lists, 1) == "F0 F1 F2 B2 B1 B0");
  CheckComplete(lists, 3, 1, false);
}

TEST_CASE("Interleaved lists use Megatron's warm-up count and chunk order", "[sim]") {
  const int64_t pp = 4, vpp = 2, m = 8;
  const TaskLists lists = GenerateSchedule(Schedule::kInterleaved, {pp, vpp, m});
  for (int64_t s = 0; s < pp; ++s) {
    const int64_t warmup = (pp - s - 1) * 2 + (vpp - 1) * pp;
    for (int64_t k = 0; k < warmup; ++k) {
      CHECK(lists.tasks[lists.stage_begin[s] + k].kind == TaskKind::kForward);
    }
    CHECK(lists.tasks[lists.stage_begin[s] + warmup + 1].kind == TaskKind::kBackward);
  }
  // Stage 0 forwards micro-batches 0-3 through chunk 0, then 0-3 through chunk 1.
  const Task& fifth = lists.tasks[4];
  CHECK(fifth.micro_batch == 0);
  CHECK(fifth.chunk == 1);
  // The first backward is micro-batch 0 of the last chunk.
  const Task& first_b = lists.tasks[lists.stage_begin[0] + 11];
  CHECK(first_b.kind == TaskKind::kBackward);
  CHECK(first_b.chunk == vpp - 1);
  CheckComplete(lists, m, vpp, false);
  CheckComplete(GenerateSchedule(Schedule::kInterleaved, {4, 3, 10}), 10, 3, false);
}

TEST_CASE("ZB-H1 splits backwards and defers W by pp - 1 steps", "[sim]") {
  const TaskLists lists = GenerateSchedule(Schedule::kZeroBubble, {4, 1, 6});
  CHECK(StageString(lists, 3) == "F0 B0 F1 B1 F2 B2 F3 B3 W0 F4 B4 W1 F5 B5 W2 W3 W4 W5");
  CHECK(StageString(lists, 0) == "F0 F1 F2 F3 B0 W0 F4 B1 W1 F5 B2 W2 B3 W3 B4 W4 B5 W5");
  for (const Task& t : lists.tasks) CHECK(t.kind != TaskKind::kBackward);
  CheckComplete(lists, 6, 1, false);
}

TEST_CASE("DualPipe feeds both ends and runs every micro-batch once per stage", "[sim]") {
  for (int64_t pp : {2, 4, 8}) {
    for (int64_t m : {2 * pp, 2 * pp + 2, 6 * pp}) {
      INFO("pp " << pp << " m " << m);
      const TaskLists lists = GenerateSchedule(Schedule::kDualPipe, {pp, 1, m});
      CheckComplete(lists, m, 2, true);
      // Stage 0 starts with direction 0 (micro-batch 0), the last stage with direction 1.
      CHECK(lists.tasks[lists.stage_begin[0]].micro_batch == 0);
      CHECK(lists.tasks[lists.stage_begin[pp - 1]].micro_batch == m / 2);
      CHECK(lists.tasks[lists.stage_begin[pp - 1]].chunk == 1);
    }
  }
}

TEST_CASE("Schedule shapes that break a schedule's rules are input errors", "[sim]") {
  CHECK_THROWS_AS(GenerateSchedule(Schedule::kDualPipe, {3, 1, 12}), InputError);
  CHECK_THROWS_AS(GenerateSchedule(Schedule::kDualPipe, {4, 1, 6}), InputError);
  CHECK_THROWS_AS(GenerateSchedule(Schedule::kInterleaved, {8, 2, 4}), InputError);
  CHECK_THROWS_AS(GenerateSchedule(Schedule::k1F1B, {4, 1, 0}), InputError);
  CHECK_THROWS_WITH(GenerateSchedule(Schedule::kDualPipe, {3, 1, 12}), Catch::Contains("even pp"));
}

TEST_CASE("InsertRecompute puts an R before each backward of the chunks that recompute", "[sim]") {
  TaskLists lists = GenerateSchedule(Schedule::k1F1B, {2, 1, 2});
  InsertRecompute(lists, 1, {true, false});
  CHECK(StageString(lists, 0) == "F0 F1 R0 B0 R1 B1");
  CHECK(StageString(lists, 1) == "F0 B0 F1 B1");
}

TEST_CASE("PyTorch's interleaved runtime numbers the tasks as time steps", "[sim]") {
  // torch.distributed.pipelining ScheduleInterleaved1F1B, pp 2, vpp 2, 2 micro-batches:
  //   rank 0: F0.0 F0.1 F2.0 F2.1 - - - B2.0 - B2.1 - B0.0 - B0.1
  //   rank 1: - F1.0 F1.1 - F3.0 B3.0 F3.1 B3.1 - B1.0 - B1.1
  const ScheduleShape shape{2, 2, 2};
  TaskLists lists = InterleavedTasks(shape);
  std::vector<int32_t> steps = PytorchInterleavedSteps(lists, shape);
  CHECK(std::vector<int32_t>(steps.begin(), steps.begin() + 8) ==
        std::vector<int32_t>{0, 1, 2, 3, 7, 9, 11, 13});
  CHECK(std::vector<int32_t>(steps.begin() + 8, steps.end()) ==
        std::vector<int32_t>{1, 2, 4, 5, 6, 7, 9, 11});
  // A recompute runs in its backward's step.
  InsertRecompute(lists, 2, std::vector<bool>(4, true));
  steps = PytorchInterleavedSteps(lists, shape);
  for (size_t k = 0; k + 1 < lists.tasks.size(); ++k) {
    if (lists.tasks[k].kind == TaskKind::kRecompute) CHECK(steps[k] == steps[k + 1]);
  }
  // Every multiple of pp numbers cleanly: each rank's steps increase.
  for (const ScheduleShape s : {ScheduleShape{4, 2, 8}, ScheduleShape{8, 2, 8},
                                ScheduleShape{4, 3, 12}, ScheduleShape{8, 4, 24}}) {
    const TaskLists l = InterleavedTasks(s);
    const std::vector<int32_t> st = PytorchInterleavedSteps(l, s);
    for (int64_t r = 0; r < s.pp; ++r) {
      CHECK(st[l.stage_begin[r]] == r);  // rank r idles r steps first
      for (int64_t k = l.stage_begin[r] + 1; k < l.stage_begin[r + 1]; ++k) {
        CHECK(st[k] > st[k - 1]);
      }
    }
  }
  // A list in another order is refused, not numbered.
  CHECK_THROWS_AS(
      PytorchInterleavedSteps(OneFOneBTasks(ScheduleShape{2, 1, 4}), ScheduleShape{2, 2, 2}),
      std::logic_error);
}
