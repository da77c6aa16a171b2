// Leave-one-source-out on the project's public runs (docs/validation/public_runs.yaml, unchanged
// measurements), the headline figure of docs/validation.md: each source is predicted by an
// efficiency fit on the other sources only. This is a REGRESSION bound, today's measured value
// plus a stated margin; issue 14's targets (<= 10% overall, no source above 15%) need the
// op-level cost model and are not met. Tighten the bounds as the model improves; never loosen
// them silently.
#include <catch2/catch.hpp>
#include <map>

#include "calib/cross_validation.h"
#include "core/format.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// Measured at commit time with the CLI's defaults (`paraplan validate
// docs/validation/public_runs.yaml --cv source`): pooled 33.01%; per source below. Issue 15
// (Q14 scored on its stated interleaved plan; embedding and loss on the end chunks) moved them
// from 29.58% pooled (NeMo 32.21, torchtitan 25.86): the fits that leave a source out now see an
// honest Q14, and the NeMo fold's H100 fit is pulled faster by it.
constexpr double kMarginPct = 0.5;  // percentage points, for changes elsewhere in the model
constexpr double kPooledMapePct = 32.96 + kMarginPct;
const std::map<std::string, double> kSourceMapePct = {
    {"Narayanan et al.", 31.46 + kMarginPct},  // the only A100 source: predicted from the prior
    {"NVIDIA NeMo docs 'Performance Benchmarks'", 42.13 + kMarginPct},
    {"NVIDIA Megatron-Bridge Performance Summary Archive", 30.02 + kMarginPct},
    {"PyTorch torchtitan benchmark 'llama3_h100_202412_torchtitan.md'", 26.61 + kMarginPct},
};

}  // namespace

TEST_CASE("Public runs: leave-one-source-out step-time error bounds", "[validate][public]") {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml");
  REQUIRE(runs.size() == 38);
  EfficiencyFitOptions options;  // the CLI's defaults, so the bound is docs/validation.md's figure
  options.threads = 2;           // CI has 2 cores; the result does not depend on it
  const CrossValidationResult cv = CrossValidateBySource(runs, options);
  std::string summary;
  for (const auto& fold : cv.folds) {
    summary += fold.source + ": " + FormatFixed(fold.step_time.mape_pct, 2) + "% over " +
               std::to_string(fold.step_time.n) + "\n";
  }
  WARN("leave-one-source-out step-time MAPE " << FormatFixed(cv.overall.mape_pct, 2) << "% over "
                                              << cv.overall.n << "\n"
                                              << summary);
  CHECK(cv.overall.n == 38);
  CHECK(cv.overall.mape_pct <= kPooledMapePct);
  REQUIRE(cv.folds.size() == kSourceMapePct.size());
  for (const auto& fold : cv.folds) {
    INFO(fold.source);
    REQUIRE(kSourceMapePct.count(fold.source) == 1);
    CHECK(fold.step_time.mape_pct <= kSourceMapePct.at(fold.source));
    CHECK(fold.report.all.errors == 0);
  }
}
