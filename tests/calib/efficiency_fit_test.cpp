#include "calib/efficiency_fit.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <vector>

#include "validate/run_evaluation.h"

using namespace paraplan;

namespace {

ModelSpec Dense(int64_t layers, int64_t hidden, int64_t heads) {
  ModelSpec m;
  m.name = "dense-" + std::to_string(hidden);
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = heads;
  m.head_dim = hidden / heads;
  m.ffn_hidden = 4 * hidden;
  m.vocab = 32000;
  m.seq_len = 2048;
  return m;
}

Cluster TestH100() {
  Cluster c;
  c.name = "test-h100";
  c.gpu.name = "H100-SXM5-80GB";
  c.gpu.memory_GiB = 80;
  c.gpu.memory_bandwidth_GBps = 3350;
  c.gpu.peak_tflops = {67, 495, 989, 989, 1979};
  c.network = {{"nvlink", 8, 450, 3, 1.0, false}, {"scaleout", 32768, 50, 10, 1.0, false}};
  return c;
}

RunSpec Run(const std::string& id, ModelSpec model, int64_t gpus, int64_t tp, int64_t gbs) {
  RunSpec run;
  run.id = id;
  run.model = std::move(model);
  run.cluster = TestH100();
  run.gpus = gpus;
  run.plan.tp = std::vector<int64_t>{tp};
  run.plan.pp = std::vector<int64_t>{1};
  run.plan.cp = std::vector<int64_t>{1};
  run.plan.dp = std::vector<int64_t>{gpus / tp};
  run.plan.micro_batch = std::vector<int64_t>{1};
  run.plan.global_batch = std::vector<int64_t>{gbs};
  run.plan.recompute = std::vector<Recompute>{Recompute::kNone};
  run.plan.zero = std::vector<int>{1};
  run.plan.precision = std::vector<Precision>{Precision::kBf16};
  run.plan.sequence_parallel = std::vector<bool>{tp > 1};
  return run;
}

}  // namespace

TEST_CASE("The efficiency fit recovers efficiencies that generated the measurements",
          "[validate]") {
  // Inside the fitted parameters' measured ranges (FittedParameters), away from the prior.
  Efficiency truth = PriorEfficiency("H100", {"nvlink", "scaleout"});
  truth.gemm_max = 0.68;
  truth.attention_bwd = 0.43;
  truth.kernel_launch_us = 8;
  std::vector<RunSpec> runs = {
      Run("T01", Dense(8, 1024, 16), 8, 1, 64),   Run("T02", Dense(8, 2048, 16), 8, 2, 32),
      Run("T03", Dense(12, 1536, 12), 8, 1, 32),  Run("T04", Dense(8, 4096, 32), 8, 4, 16),
      Run("T05", Dense(16, 2048, 16), 16, 2, 64), Run("T06", Dense(6, 3072, 24), 8, 4, 16)};
  RunEvaluationOptions evaluation;
  evaluation.simulate_top = 1;
  for (auto& run : runs) {
    RunSpec truth_run = run;
    truth_run.cluster.efficiency = truth;
    const RunOutcome outcome = EvaluateRun(truth_run, evaluation);
    INFO(run.id << ": " << outcome.message);
    REQUIRE(outcome.status == RunStatus::kOk);
    run.measured["step_time_s"] = outcome.predicted.at("step_time_s");
  }
  EfficiencyFitOptions options;
  options.holdout_every = 3;  // T03 and T06 are held out
  options.threads = 2;
  options.run = evaluation;
  options.ridge_weight = 0.01;  // four runs: a weak prior lets the data speak
  std::vector<double> shares;   // validate --fit-efficiency's progress bar
  options.progress = [&shares](double share, int64_t families) {
    CHECK(families == 1);
    shares.push_back(share);
  };
  const EfficiencyFitResult fit = FitEfficiencies(runs, options);
  REQUIRE(!shares.empty());
  CHECK(std::is_sorted(shares.begin(), shares.end()));
  CHECK(shares.front() > 0);
  CHECK(shares.back() == 1.0);
  REQUIRE(fit.families.size() == 1);
  const FamilyFit& h100 = fit.families.front();
  CHECK(h100.family == "H100");
  CHECK(h100.held_out_ids == std::vector<std::string>{"T03", "T06"});
  CHECK(h100.fitted_before.mape_pct > 10.0);
  CHECK(h100.fitted_after.mape_pct < 3.0);
  CHECK(h100.held_out_after.mape_pct < 3.0);
  CHECK(h100.held_out_after.mape_pct < h100.held_out_before.mape_pct);
  CHECK(h100.fitted.gemm_max < 0.74);   // prior 0.785, truth 0.68
  CHECK(h100.fitted.gemm_max >= 0.66);  // inside its measured range
  // H200 and H800 have no runs and take the H100 fit.
  REQUIRE(fit.defaults.count("H200") == 1);
  CHECK(fit.defaults.at("H200").gemm_max == h100.fitted.gemm_max);
  CHECK(fit.derived_from.at("H800") == "H100");
  // Applying the fit to the runs changes their efficiency.
  const auto fitted_runs = WithEfficiencies(runs, fit.defaults);
  CHECK(fitted_runs.front().cluster.efficiency.gemm_max == h100.fitted.gemm_max);
}
