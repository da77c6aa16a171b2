// The A100 layout sweeps of issue 37 (docs/validation/public_runs.yaml, rows L01-L299;
// docs/validation/README.md, "A100 layout sweeps"): Hagemann et al. 2023's measured sweep sheets
// (L01-L248, the Aleph Alpha Scaling trainer) and Zero Bubble PP's Megatron-LM baselines
// (L249-L299). The rows load, state the plan their source fixes, and two pairs that isolate one
// mechanism predict in the measured direction. The set-wide error bounds stay with the public-runs
// tests.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "calib/cross_validation.h"
#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

using test::FixedKnob;
using test::PredictedStep;

// Loaded once for both test cases (the rows' inline models are most of the test's time). Only
// the one-letter ids L01-L299: the LS rows (stop 45, runs_ls_test.cpp) share the first letter.
const std::vector<RunSpec>& LRuns() {
  static const std::vector<RunSpec> runs = [] {
    std::vector<RunSpec> picked;
    for (RunSpec& run : test::PublicRowsWithPrefix('L')) {
      if (test::RowNumber(run.id) > 0) picked.push_back(std::move(run));
    }
    return picked;
  }();
  return runs;
}

}  // namespace

TEST_CASE("L runs: A100 layout sweeps, every parallel size and batch stated",
          "[validate][public]") {
  const std::vector<RunSpec>& runs = LRuns();
  REQUIRE(runs.size() == 299);
  std::set<std::string> ids;
  std::set<std::string> groups;
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.error.empty());
    CHECK(ids.insert(run.id).second);
    groups.insert(SourceGroup(run.source));
    CHECK(run.cluster.gpu.name == "A100-SXM4-80GB");
    const int64_t tp = FixedKnob(run.plan.tp), pp = FixedKnob(run.plan.pp),
                  dp = FixedKnob(run.plan.dp), mb = FixedKnob(run.plan.micro_batch),
                  gbs = FixedKnob(run.plan.global_batch);
    CHECK(tp * pp * dp == run.gpus);  // the stated sizes multiply to the GPU count
    REQUIRE(mb > 0);
    CHECK(gbs % (dp * mb) == 0);  // whole micro-batches per data-parallel rank
    CHECK(run.measured.at("step_time_s") > 0);
    // L01-L248: Aleph Alpha's trainer (no Megatron-LM profile applies); the rest Megatron-LM.
    const int row = test::RowNumber(run.id);
    const bool hagemann = row >= 1 && row <= 248;
    CHECK(run.framework == (hagemann ? Framework::kScaling : Framework::kMegatron));
  }
  CHECK(groups == std::set<std::string>{"Hagemann et al.", "Qi et al."});
}

TEST_CASE("L runs: recompute and interleaving pairs predict in the measured direction",
          "[validate][public]") {
  const std::vector<RunSpec>& runs = LRuns();
  // L01 / L10: LLaMA 13B on 64 A100, TP 1 PP 2 mb 1, no recompute vs every layer recomputed:
  // measured 33.70 s and 44.13 s (x1.31).
  const double ratio = PredictedStep(runs, "L10") / PredictedStep(runs, "L01");
  CHECK(ratio > 1.2);
  CHECK(ratio < 1.45);
  // L249 / L252: GPT 1.5B on 8 A100 (PP 8), 24 micro-batches, 1F1B vs interleaved 1F1B:
  // measured 1.525 s and 1.374 s.
  const double one_f_one_b = PredictedStep(runs, "L249");
  CHECK(PredictedStep(runs, "L252") < one_f_one_b);
  CHECK(one_f_one_b == Approx(1.525).epsilon(0.10));
}
