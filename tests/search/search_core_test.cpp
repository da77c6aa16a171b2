#include "search/search_core.h"

#include <catch2/catch.hpp>

#include "core/units.h"
#include "fake_evaluator.h"
#include "search/objective.h"
#include "search/plan_folding.h"
#include "search/plan_summary.h"
#include "search_helpers.h"

namespace paraplan {
namespace {

using test::WithBatch;

SearchOptions CoreOptions(int threads, Objective objective = Objective::kStepTime) {
  SearchOptions o;
  o.threads = threads;
  o.objective = objective;
  o.top_k = 10;
  o.simulate_top = 16;
  return o;
}

std::vector<std::string> Lines(const std::vector<StepResult>& results) {
  std::vector<std::string> out;
  for (const StepResult& r : results) {
    out.push_back(PlanSummary(r.plan) + " " + std::to_string(r.step_time_s) + " " +
                  std::to_string(r.peak_memory_bytes));
  }
  return out;
}

bool Dominates(const StepResult& a, const StepResult& b) {
  return a.step_time_s <= b.step_time_s && a.peak_memory_bytes <= b.peak_memory_bytes &&
         (a.step_time_s < b.step_time_s || a.peak_memory_bytes < b.peak_memory_bytes);
}

TEST_CASE("Search results are identical for 1 and 4 threads", "[search]") {
  const ModelSpec model = testing::FakeModel(16);
  const PlanSpace space(model, 64, WithBatch(128));
  REQUIRE(space.size() > 8 * kSearchChunkPlans);  // many chunks: threads interleave
  const testing::FakeEvaluator evaluator(model, 40);
  for (Objective objective : {Objective::kStepTime, Objective::kCost, Objective::kMemory}) {
    const SearchResult one =
        SearchSpace(space, evaluator, model.seq_len, CoreOptions(1, objective));
    const SearchResult four =
        SearchSpace(space, evaluator, model.seq_len, CoreOptions(4, objective));
    CHECK(one.searched == space.size());
    CHECK(one.feasible > 0);
    CHECK(one.feasible == four.feasible);
    // Top 10 after folding equivalent plans (the fake model has many exact ties): no two shown
    // plans are equivalent, and what was folded plus what is shown covers the top 10.
    CHECK(one.plans.size() <= 10);
    CHECK(one.plans.size() + static_cast<size_t>(one.folded) >= 10);
    CHECK(one.folded == four.folded);
    for (size_t i = 0; i < one.plans.size(); ++i) {
      for (size_t j = 0; j < i; ++j)
        CHECK_FALSE(FoldKeyOf(one.plans[i]) == FoldKeyOf(one.plans[j]));
    }
    CHECK(Lines(one.plans) == Lines(four.plans));
    CHECK(Lines(one.pareto) == Lines(four.pareto));
  }
}

TEST_CASE("Search ranks by the objective and keeps only feasible plans", "[search]") {
  const ModelSpec model = testing::FakeModel(16);
  const PlanSpace space(model, 16, WithBatch(32));
  const testing::FakeEvaluator evaluator(model, 30);
  SECTION("step time") {
    const SearchResult r = SearchSpace(space, evaluator, model.seq_len, CoreOptions(2));
    REQUIRE(!r.plans.empty());
    for (size_t i = 0; i < r.plans.size(); ++i) {
      CHECK(r.plans[i].simulated);
      CHECK(r.plans[i].peak_memory_bytes <= GiBToBytes(30));
      CHECK(evaluator.Violations(r.plans[i].plan, false).empty());
      if (i > 0) CHECK(r.plans[i - 1].step_time_s <= r.plans[i].step_time_s);
    }
  }
  SECTION("memory") {
    const SearchResult r =
        SearchSpace(space, evaluator, model.seq_len, CoreOptions(2, Objective::kMemory));
    REQUIRE(r.plans.size() > 1);
    for (size_t i = 1; i < r.plans.size(); ++i) {
      CHECK(r.plans[i - 1].peak_memory_bytes <= r.plans[i].peak_memory_bytes);
    }
  }
  SECTION("the winner is the best simulated plan among those estimated best") {
    SearchOptions all = CoreOptions(1);
    all.simulate_top = space.size();  // simulate everything: the exact optimum
    const SearchResult exact = SearchSpace(space, evaluator, model.seq_len, all);
    const SearchResult fast = SearchSpace(space, evaluator, model.seq_len, CoreOptions(1));
    CHECK(fast.plans.front().step_time_s <= exact.plans.front().step_time_s * 1.03);
  }
}

TEST_CASE("The Pareto front holds exactly the non-dominated simulated plans", "[search]") {
  const ModelSpec model = testing::FakeModel(16);
  const PlanSpace space(model, 32, WithBatch(64));
  const testing::FakeEvaluator evaluator(model, 60);
  SearchOptions options = CoreOptions(3);
  options.top_k = space.size();
  options.simulate_top = space.size();
  options.pareto_max_slowdown = 0;  // the whole front
  const SearchResult r = SearchSpace(space, evaluator, model.seq_len, options);
  REQUIRE(r.pareto.size() > 1);
  for (size_t i = 1; i < r.pareto.size(); ++i) {
    CHECK(r.pareto[i - 1].step_time_s < r.pareto[i].step_time_s);
    CHECK(r.pareto[i - 1].peak_memory_bytes > r.pareto[i].peak_memory_bytes);
  }
  for (const StepResult& p : r.pareto) {
    for (const StepResult& q : r.plans) CHECK_FALSE(Dominates(q, p));
  }
  // Every plan off the front is dominated by (or equal to) some front point.
  for (const StepResult& q : r.plans) {
    bool covered = false;
    for (const StepResult& p : r.pareto) {
      covered =
          covered || (p.step_time_s <= q.step_time_s && p.peak_memory_bytes <= q.peak_memory_bytes);
    }
    CHECK(covered);
  }
}

TEST_CASE("The Pareto front is cut at pareto_max_slowdown times its fastest point, and says so",
          "[search]") {
  const ModelSpec model = testing::FakeModel(16);
  const PlanSpace space(model, 32, WithBatch(64));
  const testing::FakeEvaluator evaluator(model, 60);
  SearchOptions options = CoreOptions(2);
  options.simulate_top = space.size();
  options.pareto_k = 1000;
  options.pareto_max_slowdown = 0;
  const SearchResult whole = SearchSpace(space, evaluator, model.seq_len, options);
  CHECK(whole.pareto_cut == 0);
  CHECK(whole.pareto_cut_step_s == 0);
  REQUIRE(static_cast<int64_t>(whole.pareto.size()) == whole.pareto_total);
  const double fastest = whole.pareto.front().step_time_s;
  const double ratio = whole.pareto.back().step_time_s / fastest;
  REQUIRE(ratio > 1.01);
  options.pareto_max_slowdown = std::max(1.0, (1 + ratio) / 2);  // cuts the slow end
  const SearchResult cut = SearchSpace(space, evaluator, model.seq_len, options);
  CHECK(cut.pareto_total == whole.pareto_total);
  CHECK(cut.pareto_cut > 0);
  CHECK(cut.pareto_cut_step_s == options.pareto_max_slowdown * fastest);
  CHECK(static_cast<int64_t>(cut.pareto.size()) + cut.pareto_cut == cut.pareto_total);
  for (size_t i = 0; i < cut.pareto.size(); ++i) {
    CHECK(cut.pareto[i].step_time_s <= cut.pareto_cut_step_s);
    CHECK(Lines({cut.pareto[i]}) == Lines({whole.pareto[i]}));  // the front's fast end, as is
  }
  CHECK(whole.pareto[cut.pareto.size()].step_time_s > cut.pareto_cut_step_s);
  // The default keeps points up to twice the fastest step time.
  options.pareto_max_slowdown = SearchOptions().pareto_max_slowdown;
  CHECK(options.pareto_max_slowdown == kParetoMaxSlowdown);
  const SearchResult by_default = SearchSpace(space, evaluator, model.seq_len, options);
  for (const StepResult& r : by_default.pareto) CHECK(r.step_time_s <= 2 * fastest);
}

TEST_CASE("Front points over the simulator's task budget keep their estimate, the best N never",
          "[search]") {
  // 2^22 sequences per step on 16 GPUs: a plan with dp = 1 and micro-batch 1 runs 4 M
  // micro-batches, a schedule of 2 · pp · 4 M tasks, far over the budget on its own.
  const ModelSpec model = testing::FakeModel(16);
  const PlanSpace space(model, 16, WithBatch(int64_t{1} << 22));
  const testing::FakeEvaluator evaluator(model, 60);
  SearchOptions options = CoreOptions(1);
  options.pareto_k = 1000;
  const SearchResult one = SearchSpace(space, evaluator, model.seq_len, options);
  options.threads = 3;
  const SearchResult three = SearchSpace(space, evaluator, model.seq_len, options);
  REQUIRE(!one.plans.empty());
  for (const StepResult& r : one.plans) CHECK(r.simulated);  // the ranked plans always are
  int64_t estimated = 0;
  for (const StepResult& r : one.pareto) {
    if (r.simulated) continue;
    ++estimated;
    CHECK(ScheduleTasks(r.plan) > 0);
    CHECK(r.step_time_s == evaluator.EstimateStepSeconds(r.plan));  // the estimate, unrefined
  }
  CHECK(estimated > 0);
  CHECK(one.front_estimated == estimated);
  CHECK(three.front_estimated == one.front_estimated);
  CHECK(Lines(one.pareto) == Lines(three.pareto));
  CHECK(Lines(one.plans) == Lines(three.plans));
  // Asked to simulate every plan, the search does, however large their schedules.
  options.simulate_top = space.size();
  const SearchResult all = SearchSpace(space, evaluator, model.seq_len, options);
  CHECK(all.front_estimated == 0);
  bool over_budget = false;
  for (const StepResult& r : all.pareto) {
    CHECK(r.simulated);
    over_budget = over_budget || ScheduleTasks(r.plan) > kFrontSimulationTasks;
  }
  CHECK(over_budget);
}

TEST_CASE("ScheduleTasks counts a forward and a backward per micro-batch and virtual stage",
          "[search]") {
  ParallelPlan p;
  p.pp = 4;
  p.vpp = 3;
  p.dp = 2;
  p.micro_batch = 2;
  p.global_batch = 64;  // 16 micro-batches
  CHECK(ScheduleTasks(p) == 2.0 * 4 * 3 * 16);
  p.vpp = 1;
  CHECK(ScheduleTasks(p) == 2.0 * 4 * 16);
}

TEST_CASE("When nothing fits the search explains the closest plans", "[search]") {
  const ModelSpec model = testing::FakeModel(8);
  const PlanSpace space(model, 4, WithBatch(8));
  const testing::FakeEvaluator evaluator(model, 4);  // far too small
  const SearchResult r = SearchSpace(space, evaluator, model.seq_len, CoreOptions(2));
  CHECK(r.feasible == 0);
  CHECK(r.plans.empty());
  REQUIRE(!r.closest.empty());
  for (size_t i = 1; i < r.closest.size(); ++i) {
    CHECK(r.closest[i - 1].peak_memory_bytes <= r.closest[i].peak_memory_bytes);
  }
  // The closest plan is the rule-valid plan with the least memory.
  double least = 1e300;
  for (PlanCursor cur(space, 0); !cur.AtEnd(); cur.Next()) {
    if (evaluator.Violations(cur.plan(), true).empty()) {
      least = std::min(least, evaluator.PeakMemoryBytes(cur.plan()));
    }
  }
  CHECK(r.closest.front().peak_memory_bytes == least);
  CHECK_THAT(r.why_nothing_fits, Catch::Contains("No plan fits in 4.0 GiB per GPU"));
  CHECK_THAT(r.why_nothing_fits, Catch::Contains("stage 0 needs"));
  CHECK_THAT(r.why_nothing_fits, Catch::Contains("activations"));
  CHECK_THAT(r.why_nothing_fits, Catch::Contains("more GPUs"));
}

TEST_CASE("When no plan obeys the rules the search names a broken rule", "[search]") {
  const ModelSpec model = testing::FakeModel(8, 3);  // 3 heads: tp must be 1 or 3
  PlanConstraints c = WithBatch(8);
  c.tp = std::vector<int64_t>{2, 4};
  const PlanSpace space(model, 4, c);
  const testing::FakeEvaluator evaluator(model, 80);
  const SearchResult r = SearchSpace(space, evaluator, model.seq_len, CoreOptions(1));
  CHECK(r.feasible == 0);
  CHECK_THAT(r.why_nothing_fits, Catch::Contains("No plan obeys the rules"));
  CHECK_THAT(r.why_nothing_fits, Catch::Contains("does not divide heads"));
}

TEST_CASE("Progress is reported up to the total", "[search]") {
  const ModelSpec model = testing::FakeModel(8);
  const PlanSpace space(model, 16, WithBatch(16));
  const testing::FakeEvaluator evaluator(model, 80);
  SearchOptions options = CoreOptions(2);
  int64_t last = -1, total_seen = 0;
  options.progress = [&](int64_t done, int64_t total) {
    CHECK(done >= last);
    last = done;
    total_seen = total;
  };
  SearchSpace(space, evaluator, model.seq_len, options);
  CHECK(last == space.size());
  CHECK(total_seen == space.size());
}

TEST_CASE("Cost objective is GPU-hours per billion tokens", "[search]") {
  ParallelPlan p;
  p.global_batch = 1000;
  // 1000 sequences x 1000 tokens = 1e6 tokens per step; 100 GPUs x 36 s = 1 GPU-hour.
  CHECK(GpuHoursPerBillionTokens(36, 100, TokensPerStep(p, 1000)) == Approx(1000.0));
  CHECK(ParseObjective("cost") == Objective::kCost);
  CHECK_THROWS(ParseObjective("speed"));
}

}  // namespace
}  // namespace paraplan
