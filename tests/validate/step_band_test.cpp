// The shipped step-time bands are what the validation residuals give today: recomputed from a
// fresh `paraplan validate docs/validation/public_runs.yaml --cv source` (default options): each
// run's error as predicted by the fold that left its source out.
#include "validate/step_band.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>

#include "calib/cross_validation.h"
#include "core/format.h"
#include "validate/holdout.h"
#include "validate/validation_report.h"

namespace paraplan {
namespace {

TEST_CASE("percentile band of a residual list", "[validate][band]") {
  const StepTimeBand b = ComputeStepTimeBand("X", {10, -10, 0, 20, -20, 5, -5, 15, -15, 30, 25});
  CHECK(b.runs == 11);
  CHECK(b.error_p10_pct == Approx(-15));
  CHECK(b.error_p90_pct == Approx(25));
  CHECK(b.LowFactor() == Approx(1 / 1.25));
  CHECK(b.HighFactor() == Approx(1 / 0.85));
  CHECK_THROWS(ComputeStepTimeBand("X", {}));
}

TEST_CASE("families without runs borrow their data family's band", "[validate][band]") {
  const auto h200 = StepTimeBandFor("H200-SXM-141GB");
  REQUIRE(h200);
  CHECK(h200->family == "H200");
  CHECK(h200->data_family == "H100");
  CHECK_FALSE(StepTimeBandFor("MI300X"));
}

TEST_CASE("a GPU nobody fitted gets the leave-one-GPU-family-out band, never none",
          "[validate][band]") {
  for (const char* gpu : {"B300-SXM-288GB"}) {
    INFO(gpu);
    const auto band = StepTimeBandFor(gpu);
    REQUIRE(band);
    CHECK(band->data_family == kUnfittedBandData);
    CHECK(band->family == GpuModel(gpu));
    CHECK(band->runs == UnfittedStepTimeBand().runs);
    CHECK(band->LowFactor() < 1.0);
    CHECK(band->HighFactor() > 1.0);
  }
  // Fitted: their own bands (B200 and GB200 since the MLPerf, dgxc and NeMo 25.02 rows).
  CHECK(StepTimeBandFor("A100-SXM4-80GB")->data_family == "A100");
  CHECK(StepTimeBandFor("B200-SXM-180GB")->data_family == "B200");
  CHECK(StepTimeBandFor("B200-GB200")->data_family == "GB200");
}

TEST_CASE("shipped unfitted-GPU band matches the leave-one-GPU-family-out residuals",
          "[validate][band]") {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml");
  EfficiencyFitOptions options;  // the CLI's defaults
  options.threads = 2;
  const CrossValidationResult cv = CrossValidate(runs, options, CvGrouping::kGpu);
  std::vector<double> errors;
  for (const auto& fold : cv.folds) {
    for (const auto& run : fold.report.runs) {
      auto it = run.error_pct.find("step_time_s");
      if (it != run.error_pct.end()) errors.push_back(it->second);
    }
  }
  const StepTimeBand shipped = UnfittedStepTimeBand();
  const StepTimeBand now = ComputeStepTimeBand("", errors);
  INFO("now: {\"\", kUnfittedBandData, " << now.runs << ", " << FormatFixed(now.error_p10_pct, 1)
                                         << ", " << FormatFixed(now.error_p90_pct, 1) << "}");
  CHECK(shipped.runs == now.runs);
  CHECK(std::abs(shipped.error_p10_pct - now.error_p10_pct) <= 0.051);
  CHECK(std::abs(shipped.error_p90_pct - now.error_p90_pct) <= 0.051);
}

TEST_CASE("shipped step-time bands match the validation residuals", "[validate][band]") {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml");
  EfficiencyFitOptions options;  // the CLI's defaults
  options.threads = 2;
  const CrossValidationResult cv = CrossValidateBySource(runs, options);
  // A derived family's runs (H200) count toward the band of the family it takes its numbers
  // from (H100), the band StepTimeBandFor gives it.
  const auto derived = DerivedFamilies();
  std::map<std::string, std::vector<double>> errors;
  for (const auto& fold : cv.folds) {
    for (const auto& run : fold.report.runs) {
      auto it = run.error_pct.find("step_time_s");
      if (it == run.error_pct.end()) continue;
      auto d = derived.find(run.gpu_family);
      errors[d == derived.end() ? run.gpu_family : d->second].push_back(it->second);
    }
  }
  const std::vector<StepTimeBand> shipped = ShippedStepTimeBands();
  REQUIRE(shipped.size() == errors.size());
  for (const StepTimeBand& s : shipped) {
    REQUIRE(errors.count(s.family));
    const StepTimeBand now = ComputeStepTimeBand(s.family, errors[s.family]);
    INFO(s.family << " now: {\"" << s.family << "\", \"" << s.family << "\", " << now.runs << ", "
                  << FormatFixed(now.error_p10_pct, 1) << ", " << FormatFixed(now.error_p90_pct, 1)
                  << "}");
    CHECK(s.runs == now.runs);
    CHECK(std::abs(s.error_p10_pct - now.error_p10_pct) <= 0.051);
    CHECK(std::abs(s.error_p90_pct - now.error_p90_pct) <= 0.051);
  }
}

}  // namespace
}  // namespace paraplan
