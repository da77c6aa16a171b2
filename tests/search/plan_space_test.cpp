#include "search/plan_space.h"

#include <catch2/catch.hpp>
#include <set>
#include <tuple>

#include "core/error.h"
#include "fake_evaluator.h"
#include "search/plan_summary.h"
#include "search_helpers.h"

namespace paraplan {
namespace {

using test::WithBatch;

int64_t CountDivisors(int64_t n) {
  int64_t count = 0;
  for (int64_t d = 1; d <= n; ++d) count += n % d == 0 ? 1 : 0;
  return count;
}

// vpp > 1 values for an interleaved schedule: pp*vpp divides the layers or the layers + 2 (the
// embedding and the loss counted as layers).
int64_t InterleavedVpps(int64_t layers, int64_t pp) {
  int64_t count = 0;
  for (int64_t v = 2; v * pp <= layers + 2; ++v) {
    bool ok = false;
    for (int64_t e : {0, 2}) ok = ok || (layers + e) % (pp * v) == 0;
    count += ok ? 1 : 0;
  }
  return count;
}

// The space's size by brute force over every tuple, from the documented rules.
int64_t BruteForceCount(int64_t gpus, int64_t layers, int64_t global_batch) {
  int64_t total = 0;
  for (int64_t tp = 1; tp <= gpus; ++tp) {
    for (int64_t cp = 1; cp <= gpus; ++cp) {
      for (int64_t pp = 1; pp <= gpus; ++pp) {
        for (int64_t dp = 1; dp <= gpus; ++dp) {
          if (tp * cp * pp * dp != gpus || pp > layers || global_batch % dp != 0) continue;
          const int64_t micro = CountDivisors(global_batch / dp);
          int64_t schedules = 1;
          if (pp > 1) {
            schedules = 3;  // 1f1b, zero-bubble, dualpipe
            schedules += InterleavedVpps(layers, pp);
          }
          const int64_t zero = dp * cp == 1 ? 1 : 4;
          const int64_t tp_overlap = tp > 1 ? 2 : 1;
          total += micro * schedules * 3 * zero * tp_overlap;
        }
      }
    }
  }
  return total;
}

TEST_CASE("Divisors are ascending and complete", "[search]") {
  CHECK(Divisors(1) == std::vector<int64_t>{1});
  CHECK(Divisors(12) == std::vector<int64_t>{1, 2, 3, 4, 6, 12});
  CHECK(Divisors(16) == std::vector<int64_t>{1, 2, 4, 8, 16});
}

TEST_CASE("PlanSpace counts match a brute-force enumeration", "[search]") {
  for (auto [gpus, layers, batch] :
       {std::tuple<int64_t, int64_t, int64_t>{8, 8, 8}, {16, 12, 32}, {6, 4, 12}, {32, 2, 64}}) {
    const PlanSpace space(testing::FakeModel(layers), gpus, WithBatch(batch));
    INFO("gpus=" << gpus << " layers=" << layers << " batch=" << batch);
    CHECK(space.size() == BruteForceCount(gpus, layers, batch));
  }
}

TEST_CASE("PlanSpace indices decode to distinct, well-formed plans", "[search]") {
  const PlanSpace space(testing::FakeModel(8), 16, WithBatch(16));
  REQUIRE(space.size() > 1000);
  std::set<std::string> seen;
  PlanCursor cursor(space, 0);
  for (; !cursor.AtEnd(); cursor.Next()) {
    const ParallelPlan& p = cursor.plan();
    CHECK(p.Gpus() == 16);
    CHECK(p.global_batch % (p.micro_batch * p.dp) == 0);
    CHECK(p.sequence_parallel == (p.tp > 1));
    if (cursor.index() % 97 == 0) CHECK(PlanSummary(space.At(cursor.index())) == PlanSummary(p));
    seen.insert(PlanSummary(p));
  }
  CHECK(static_cast<int64_t>(seen.size()) == space.size());
  // A cursor started in the middle agrees with one walked from the start.
  PlanCursor middle(space, space.size() / 2);
  CHECK(PlanSummary(middle.plan()) == PlanSummary(space.At(space.size() / 2)));
}

TEST_CASE("PlanSpace honours fixed and restricted knobs", "[search]") {
  PlanConstraints c = WithBatch(32);
  c.tp = std::vector<int64_t>{2, 4};
  c.recompute = std::vector<Recompute>{Recompute::kSelective};
  c.zero = std::vector<int>{1};
  c.schedule = std::vector<Schedule>{Schedule::kInterleaved, Schedule::kGpipe};
  c.overlap_tp_comm = std::vector<bool>{true};
  c.precision = std::vector<Precision>{Precision::kBf16, Precision::kFp8};
  const PlanSpace space(testing::FakeModel(16), 32, c);
  REQUIRE(space.size() > 0);
  std::set<Precision> precisions;
  for (PlanCursor cur(space, 0); !cur.AtEnd(); cur.Next()) {
    const ParallelPlan& p = cur.plan();
    CHECK((p.tp == 2 || p.tp == 4));
    CHECK(p.recompute == Recompute::kSelective);
    CHECK(p.zero == 1);
    CHECK((p.schedule == Schedule::kInterleaved || p.schedule == Schedule::kGpipe));
    if (p.schedule == Schedule::kGpipe) CHECK(p.vpp == 1);
    if (p.schedule == Schedule::kInterleaved) CHECK(p.vpp > 1);
    CHECK(p.overlap_tp_comm);
    precisions.insert(p.precision);
  }
  CHECK(precisions.size() == 2);
}

TEST_CASE("PlanSpace honours a fixed vpp on one pipeline stage too", "[search]") {
  // Issue 34: `--plan vpp=2` returned pp = 1 plans with vpp = 1 (one stage took 1F1B whatever
  // vpp said). Every plan now has the vpp asked for; those on one stage are left to the rules.
  PlanConstraints c = WithBatch(32);
  c.vpp = std::vector<int64_t>{2};
  const PlanSpace space(testing::FakeModel(16), 8, c);
  REQUIRE(space.size() > 0);
  bool one_stage = false;
  for (PlanCursor cur(space, 0); !cur.AtEnd(); cur.Next()) {
    const ParallelPlan& p = cur.plan();
    CHECK(p.vpp == 2);
    CHECK(p.schedule == Schedule::kInterleaved);
    one_stage = one_stage || p.pp == 1;
  }
  CHECK(one_stage);
  // vpp=1|2 on one stage: 1F1B with vpp 1, as without the knob.
  c.vpp = std::vector<int64_t>{1, 2};
  c.pp = std::vector<int64_t>{1};
  const PlanSpace both(testing::FakeModel(16), 8, c);
  REQUIRE(both.size() > 0);
  for (PlanCursor cur(both, 0); !cur.AtEnd(); cur.Next()) CHECK(cur.plan().vpp == 1);
}

TEST_CASE("PlanSpace searches MoE knobs only for MoE models", "[search]") {
  ModelSpec moe = testing::FakeModel(8);
  moe.moe = MoeSpec{8, 2, 0, 1024, 0, 1, std::nullopt};
  const PlanSpace dense(testing::FakeModel(8), 16, WithBatch(16));
  const PlanSpace sparse(moe, 16, WithBatch(16));
  CHECK(sparse.size() > dense.size());
  bool saw_ep = false;
  for (PlanCursor cur(sparse, 0); !cur.AtEnd(); cur.Next()) {
    const ParallelPlan& p = cur.plan();
    CHECK((p.dp * p.cp) % p.ep == 0);
    CHECK(8 % p.ep == 0);
    CHECK((p.etp == 1 || p.etp == p.tp));
    saw_ep = saw_ep || p.ep > 1;
  }
  CHECK(saw_ep);
  for (PlanCursor cur(dense, 0); !cur.AtEnd(); cur.Next()) CHECK(cur.plan().ep == 1);
}

TEST_CASE("PlanSpace reports empty spaces and bad constraints", "[search]") {
  PlanConstraints c = WithBatch(8);
  c.tp = std::vector<int64_t>{8};
  c.pp = std::vector<int64_t>{8};
  const PlanSpace empty(testing::FakeModel(8), 16, c);
  CHECK(empty.size() == 0);
  CHECK_THAT(empty.EmptyReason(), Catch::Contains("multiplies to 16 GPUs"));
  CHECK_THROWS_AS(PlanSpace(testing::FakeModel(8), 8, PlanConstraints{}), InputError);
}

}  // namespace
}  // namespace paraplan
