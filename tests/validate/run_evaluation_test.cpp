#include "validate/run_evaluation.h"

#include <catch2/catch.hpp>

#include "../cost/test_specs.h"
#include "config/resolve.h"
#include "validate/validation_json.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

const std::string kSmallRuns = PARAPLAN_SOURCE_DIR "/tests/validate/data/small_runs.yaml";

const RunOutcome& FindOutcome(const ValidationReport& report, const std::string& id) {
  for (const auto& run : report.runs) {
    if (run.id == id) return run;
  }
  FAIL("no run " << id);
  return report.runs.front();
}

}  // namespace

TEST_CASE("ResolveWithDefaults keeps stated knobs and derives dp", "[validate]") {
  PlanConstraints c;
  c.tp = std::vector<int64_t>{4};
  c.pp = std::vector<int64_t>{2};
  c.global_batch = std::vector<int64_t>{256};
  c.recompute = std::vector<Recompute>{Recompute::kFull};
  const ParallelPlan p = ResolveWithDefaults(c, 64);
  CHECK(p.tp == 4);
  CHECK(p.pp == 2);
  CHECK(p.dp == 8);
  CHECK(p.global_batch == 256);
  CHECK(p.recompute == Recompute::kFull);
  CHECK(p.sequence_parallel);
  const std::vector<std::string> searched = SearchedKnobs(c, p);
  CHECK(std::find(searched.begin(), searched.end(), "micro_batch=1") != searched.end());
  CHECK(std::find(searched.begin(), searched.end(), "dp=8") != searched.end());
  CHECK(std::find(searched.begin(), searched.end(), "tp=4") == searched.end());
}

TEST_CASE("ResolveWithDefaults keeps the stated kernels", "[validate]") {
  // Issue 36: the fusion profile and kernel switches were dropped, so the rules judged a run
  // with moe_pad_to_capacity as if it had none.
  PlanConstraints c;
  c.global_batch = std::vector<int64_t>{64};
  KernelRecipe kernels;
  kernels.moe_pad_to_capacity = true;
  kernels.cuda_graphs = true;
  c.kernels = kernels;
  const ParallelPlan p = ResolveWithDefaults(c, 8);
  CHECK(p.kernels.moe_pad_to_capacity);
  CHECK(p.kernels.cuda_graphs);
}

TEST_CASE("A run that cannot be evaluated does not stop the others", "[validate]") {
  const std::vector<RunSpec> runs = LoadValidationRuns(kSmallRuns);
  REQUIRE(runs.size() == 4);
  ValidationOptions options;
  options.threads = 2;
  options.holdout_every = 0;
  const ValidationReport report = ValidateRuns(runs, options);
  REQUIRE(report.runs.size() == 4);
  CHECK(report.runs[0].id == "S01");  // file order
  CHECK(report.runs[3].id == "S04");

  const RunOutcome& ok = FindOutcome(report, "S01");
  INFO(ok.message);
  CHECK(ok.status == RunStatus::kOk);
  CHECK(ok.fits);
  CHECK(ok.predicted.size() == 4);
  CHECK(ok.error_pct.count("step_time_s") == 1);
  CHECK(ok.error_pct.count("memory_GiB") == 1);
  CHECK(ok.error_pct.count("mfu") == 0);  // not measured
  CHECK(ok.error_pct.at("step_time_s") ==
        Approx((ok.predicted.at("step_time_s") - 1.0) / 1.0 * 100));
  CHECK(std::find_if(ok.searched.begin(), ok.searched.end(), [](const std::string& s) {
          return s.rfind("micro_batch=", 0) == 0;
        }) != ok.searched.end());

  CHECK(FindOutcome(report, "S02").status == RunStatus::kError);
  CHECK_FALSE(FindOutcome(report, "S02").message.empty());
  CHECK(FindOutcome(report, "S03").status == RunStatus::kError);
  CHECK(FindOutcome(report, "S03").message.find("no-such-model-anywhere") != std::string::npos);

  const RunOutcome& big = FindOutcome(report, "S04");
  CHECK(big.status == RunStatus::kOk);
  CHECK_FALSE(big.fits);  // reported and counted, never hidden
  CHECK(big.predicted.at("memory_GiB") > 80);
  CHECK(big.error_pct.count("step_time_s") == 1);

  CHECK(report.all.fits_n == 2);
  CHECK(report.all.fits_fit == 1);
  CHECK(report.all.errors == 2);
  CHECK(report.all.metrics.at("step_time_s").n == 2);
}

TEST_CASE("Validation output is the same whatever the thread count", "[validate]") {
  const std::vector<RunSpec> runs = LoadValidationRuns(kSmallRuns);
  ValidationOptions one;
  one.threads = 1;
  ValidationOptions many;
  many.threads = 4;
  CHECK(ValidationReportJson(ValidateRuns(runs, one)).Dump(2) ==
        ValidationReportJson(ValidateRuns(runs, many)).Dump(2));
}

TEST_CASE("a run no plan can honour is an error, never a stand-in plan", "[validate][layout]") {
  RunSpec run;
  run.id = "L01";
  run.model = test::Llama3_70B();
  run.model.layers = 7;  // interleaving on pp = 2 has no layout: 7 and 9 split over no 2·vpp
  run.cluster = test::DgxH100();
  run.gpus = 16;
  run.plan = ParsePlanString("tp=8,pp=2,dp=1,schedule=interleaved,global_batch=8,micro_batch=1");
  run.measured = {{"step_time_s", 1.0}};
  const RunOutcome out = EvaluateRun(run, RunEvaluationOptions{});
  CHECK(out.status == RunStatus::kError);
  CHECK(out.message.find("no plan honours the stated knobs") != std::string::npos);
  CHECK(out.predicted.empty());
}

// A run whose timed step includes a forward-only evaluation (MLPerf v6.0's VAL_CHECK_INTERVAL=1):
// the prediction is the training step plus that pass through the chosen plan's stages; the
// training step itself, the plan and every other run are unchanged.
TEST_CASE("an evaluation pass inside the timed step is added to the prediction", "[validate]") {
  RunSpec run;
  run.id = "E01";
  run.model = test::Llama3_70B();
  run.cluster = test::DgxH100();
  run.gpus = 32;
  run.plan = ParsePlanString(
      "tp=4,pp=4,dp=2,vpp=2,schedule=interleaved,micro_batch=1,global_batch=64,recompute=full,"
      "zero=1");
  run.measured = {{"step_time_s", 1.0}};
  const RunOutcome plain = EvaluateRun(run, RunEvaluationOptions{});
  REQUIRE(plain.status == RunStatus::kOk);
  CHECK(plain.eval_pass_s == 0);

  run.eval_sequences_per_step = 16;  // 16 / (dp 2 x micro-batch 1) = 8 micro-batches per replica
  const RunOutcome with_eval = EvaluateRun(run, RunEvaluationOptions{});
  REQUIRE(with_eval.status == RunStatus::kOk);
  REQUIRE(with_eval.result);
  const StepResult& r = *with_eval.result;
  CHECK(r.step_time_s == Approx(plain.result->step_time_s));  // the training step as before
  REQUIRE(r.loads.size() == 4);
  double slowest = 0, sum = 0;
  for (const StageLoad& load : r.loads) {
    slowest = std::max(slowest, load.forward_s);
    sum += load.forward_s;
  }
  // m = 8 > p = 4: the slowest stage's 8 forwards after the others' first chunks.
  const double pass = 8 * slowest + (sum - slowest) / 2;
  CHECK(with_eval.eval_pass_s == Approx(pass));
  CHECK(EvalPassSeconds(run, r) == Approx(pass));
  CHECK(TimedStepSeconds(run, r) == Approx(r.step_time_s + pass));
  CHECK(with_eval.predicted.at("step_time_s") == Approx(r.step_time_s + pass));
  // Forward only: the slowest stage's 8 forwards at least, less than the training step's 32
  // micro-batches of forward and backward.
  CHECK(pass >= 8 * slowest);
  CHECK(pass < r.step_time_s);
  CHECK(
      with_eval.predicted.at("tokens_per_s_per_gpu") ==
      Approx(plain.predicted.at("tokens_per_s_per_gpu") * r.step_time_s / (r.step_time_s + pass)));
  CHECK(with_eval.error_pct.at("step_time_s") ==
        Approx((with_eval.predicted.at("step_time_s") - 1.0) * 100));
  CHECK(ValidationReportJson(ValidateRuns({run}, ValidationOptions{}))
            .Dump(2)
            .find("\"eval_pass_s\"") != std::string::npos);
}
