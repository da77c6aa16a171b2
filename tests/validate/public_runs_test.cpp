// The validation against published runs as a test (DESIGN.md "Quality bars"): the project's
// copy of the public runs, the shipped efficiencies, the thresholds of issue 6. Tighten them as
// the model improves; never loosen them silently (docs/validation.md has the current numbers).
#include <catch2/catch.hpp>

#include "core/format.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

constexpr double kMaxStepTimeMapePct = 10.0;

std::string Failures(const ValidationReport& report) {
  std::string text;
  for (const auto& run : report.runs) {
    if (run.status != RunStatus::kOk) {
      text += run.id + ": error: " + run.message + "\n";
    } else if (!run.fits) {
      text += run.id + ": published plan predicted not to fit: " + run.message + "\n";
    }
    auto it = run.error_pct.find("step_time_s");
    if (it != run.error_pct.end()) {
      text += run.id + ": step time error " + FormatFixed(it->second, 1) + "%\n";
    }
  }
  return text;
}

}  // namespace

TEST_CASE("Public runs: step-time MAPE <= 10% and every published plan fits",
          "[validate][public]") {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml");
  REQUIRE(runs.size() == 38);
  ValidationOptions options;
  options.threads = 2;  // CI has 2 cores
  options.run.simulate_top = 2;
  const ValidationReport report = ValidateRuns(runs, options);
  INFO(Failures(report));
  CHECK(report.all.errors == 0);
  CHECK(report.all.fits_fit == report.all.fits_n);
  CHECK(report.all.metrics.at("step_time_s").n == 38);
  CHECK(report.all.metrics.at("step_time_s").mape_pct <= kMaxStepTimeMapePct);
}
