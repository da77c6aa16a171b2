#include "evaluate/fixed_plan.h"

#include <catch2/catch.hpp>

#include "../cost/test_specs.h"
#include "core/error.h"
#include "evaluate/step_model.h"

using namespace paraplan;

namespace {

ParallelPlan FixedJobPlan(int64_t tp, int64_t pp, int64_t dp, int64_t gb) {
  ParallelPlan p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.global_batch = gb;
  p.sequence_parallel = tp > 1;
  return p;
}

}  // namespace

TEST_CASE("RunFixedPlan simulates a plan that obeys the rules", "[evaluate]") {
  const ModelSpec m = test::Llama3_70B();
  const Cluster c = test::DgxH100();
  const ParallelPlan p = FixedJobPlan(8, 2, 4, 64);
  const StepModel model(m, c, 64);
  const FixedPlanOutcome run = RunFixedPlan(m, c, 64, p);
  REQUIRE(run.violations.empty());
  REQUIRE(run.result.has_value());
  CHECK(run.result->step_time_s == model.Simulate(p).step_time_s);

  FixedPlanRequest analytic;
  analytic.analytic = true;
  CHECK(RunFixedPlan(m, c, 64, p, analytic).result->step_time_s == model.Estimate(p).step_time_s);

  // A timeline and the simulator's input come back when asked; the analytic answer stays.
  std::vector<TimelineEvent> timeline;
  PipelineInput stages;
  analytic.timeline = &timeline;
  analytic.stages = &stages;
  const FixedPlanOutcome traced = RunFixedPlan(m, c, 64, p, analytic);
  CHECK(traced.result->step_time_s == model.Estimate(p).step_time_s);
  CHECK_FALSE(timeline.empty());
  CHECK(stages.stages.size() == 2);
}

TEST_CASE("RunFixedPlan lists the broken rules and costs nothing", "[evaluate]") {
  const ParallelPlan p = FixedJobPlan(16, 2, 2, 64);  // tp·pp·dp = 64 ranks on 48 GPUs
  const FixedPlanOutcome run = RunFixedPlan(test::Llama3_70B(), test::DgxH100(), 48, p);
  CHECK_FALSE(run.violations.empty());
  CHECK_FALSE(run.result.has_value());
  CHECK(run.plan.tp == 16);
}

TEST_CASE("RunFixedPlan resolves plan knobs first", "[evaluate]") {
  PlanConstraints open;
  open.tp = std::vector<int64_t>{4, 8};
  open.global_batch = std::vector<int64_t>{64};
  CHECK_THROWS_AS(RunFixedPlan(test::Llama3_70B(), test::DgxH100(), 64, open), InputError);

  PlanConstraints fixed;
  fixed.tp = std::vector<int64_t>{8};
  fixed.pp = std::vector<int64_t>{2};
  fixed.global_batch = std::vector<int64_t>{64};
  const FixedPlanOutcome run = RunFixedPlan(test::Llama3_70B(), test::DgxH100(), 64, fixed);
  CHECK(run.plan.dp == 4);
  REQUIRE(run.result.has_value());
  CHECK(run.result->step_time_s > 0);
}
