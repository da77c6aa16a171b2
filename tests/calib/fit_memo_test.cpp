#include "calib/fit_memo.h"

#include <catch2/catch.hpp>
#include <memory>
#include <string>
#include <vector>

#include "calib/efficiency_fit.h"
#include "synthetic_runs.h"

using namespace paraplan;

namespace {

// Three sources of H100 runs and one A100 run, measured under an efficiency away from the prior.
std::vector<RunSpec> ThreeSources() {
  using test::SyntheticDense;
  using test::SyntheticRun;
  std::vector<RunSpec> runs = {
      SyntheticRun("M01", "Paper A, Table 1", SyntheticDense(8, 1024, 16), 8, 1, 16),
      SyntheticRun("M02", "Paper A, Table 2", SyntheticDense(8, 2048, 16), 8, 2, 8),
      SyntheticRun("M03", "Report B", SyntheticDense(12, 1536, 12), 8, 1, 8),
      SyntheticRun("M04", "Report B", SyntheticDense(8, 4096, 32), 16, 4, 8),
      SyntheticRun("M05", "Benchmark C", SyntheticDense(6, 3072, 24), 8, 4, 4),
      SyntheticRun("M06", "Benchmark C", SyntheticDense(8, 2048, 16), 8, 2, 8, "A100-SXM4-80GB"),
  };
  Efficiency truth = PriorEfficiency("H100", {"nvlink", "scaleout"});
  truth.gemm_max = 0.68;
  truth.kernel_launch_us = 8;
  RunEvaluationOptions evaluation;
  evaluation.simulate_top = 1;
  test::MeasureWith(runs, truth, evaluation);
  return runs;
}

EfficiencyFitOptions MemoOptions(int threads, std::shared_ptr<FamilyFitCache> cache) {
  EfficiencyFitOptions options;
  options.holdout_every = 0;  // as each cross-validation fold fits
  options.threads = threads;
  options.run.simulate_top = 1;
  options.lm_iterations = 10;
  options.cache = std::move(cache);
  return options;
}

void CheckSummary(const MetricSummary& a, const MetricSummary& b) {
  CHECK(a.n == b.n);
  CHECK(a.mape_pct == b.mape_pct);
  CHECK(a.max_abs_pct == b.max_abs_pct);
}

}  // namespace

TEST_CASE("The fit memo keys a run's search and step times by the exact efficiency", "[validate]") {
  FitMemo memo;
  const Efficiency prior = PriorEfficiency("H100", {"nvlink", "scaleout"});
  Efficiency other_link = prior;
  other_link.link["scaleout"] += 0.01;
  CHECK(!memo.Search("R1", prior));
  memo.RecordStep("R1", prior, prior, 1.0);  // no search recorded: nothing to attach it to
  CHECK(!memo.Step("R1", prior, prior));
  FitSearch search;
  search.usable = true;
  search.error_pct = -12.5;
  search.plan.tp = 4;
  memo.RecordSearch("R1", prior, search);
  REQUIRE(memo.Search("R1", prior));
  CHECK(memo.Search("R1", prior)->plan.tp == 4);
  CHECK(memo.Search("R1", prior)->error_pct == -12.5);
  CHECK(!memo.Search("R1", other_link));  // one link fraction apart: another key
  CHECK(!memo.Search("R2", prior));
  memo.RecordStep("R1", prior, other_link, 2.5);
  CHECK(memo.Step("R1", prior, other_link) == 2.5);
  CHECK(!memo.Step("R1", prior, prior));
  CHECK(!memo.Step("R1", other_link, other_link));
  CHECK(memo.Hits() == 4);
}

TEST_CASE("A fold's fit through an earlier fold's memo gives the same numbers as a fresh fit",
          "[validate]") {
  const std::vector<RunSpec> runs = ThreeSources();
  auto cache = std::make_shared<FamilyFitCache>();
  FitEfficiencies(runs, MemoOptions(2, cache));  // every source: the fold before
  std::vector<RunSpec> without_b;
  for (const RunSpec& run : runs) {
    if (run.source != "Report B") without_b.push_back(run);
  }
  const int64_t hits_before = cache->memo.Hits();
  const EfficiencyFitResult via_memo = FitEfficiencies(without_b, MemoOptions(2, cache));
  // The H100 fit without Report B starts where the fit with it did: the searches at the prior
  // and the first Jacobian's step times come from the memo.
  CHECK(cache->memo.Hits() > hits_before);
  for (int threads : {1, 2}) {
    INFO("threads " << threads);
    const EfficiencyFitResult fresh = FitEfficiencies(without_b, MemoOptions(threads, nullptr));
    REQUIRE(fresh.families.size() == via_memo.families.size());
    for (size_t i = 0; i < fresh.families.size(); ++i) {
      const FamilyFit& a = via_memo.families[i];
      const FamilyFit& b = fresh.families[i];
      INFO(a.family);
      CHECK(a.family == b.family);
      CHECK(a.fitted_ids == b.fitted_ids);
      CHECK(a.fitted == b.fitted);
      CHECK(a.outer_iterations == b.outer_iterations);
      CHECK(a.lm_iterations == b.lm_iterations);
      CheckSummary(a.fitted_before, b.fitted_before);
      CheckSummary(a.fitted_after, b.fitted_after);
    }
    CHECK(via_memo.defaults == fresh.defaults);
  }
}
