// The validation against published runs as a test (DESIGN.md "Quality bars"): the project's
// copy of the public runs, the shipped efficiencies, the thresholds of issue 6. Tighten them as
// the model improves; never loosen them silently (docs/validation.md has the current numbers).
#include <catch2/catch.hpp>

#include "core/format.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// Issue 6's bar: step-time MAPE <= 10% and 38/38 fitting. Today's bounds (the adjusted file
// is there; the unchanged one models the 500 W torchtitan parts as 700 W ones):
constexpr double kIssueStepTimeMapePct = 10.0;
// Issue 15 raised them (9.4 -> 10.0, 8.2 -> 10.6, 11.9 -> 12.6, memory 9.5 -> 9.7): Q14 was
// scored on a stand-in plan (interleaved with vpp = 1, +1.5%) because 126 layers did not split
// over its virtual stages; it is now scored on the plan it states (torchtitan's 2 virtual stages
// per rank, balanced layout): -23.4% (adjusted), -38.7% (unchanged copy). Embedding and loss now
// sit on the first and last virtual stage of interleaved plans instead of being spread over
// every chunk (E09 +5.9 -> +8.2%, E10 +22.6 -> +25.2%).
constexpr double kAdjustedStepTimeMapePct = 10.0;
static_assert(kAdjustedStepTimeMapePct <= kIssueStepTimeMapePct, "never loosen past the bar");
constexpr double kAdjustedHeldOutMapePct = 10.6;
constexpr int64_t kAdjustedMinFits = 38;
constexpr double kUnchangedStepTimeMapePct = 12.6;
constexpr int64_t kUnchangedMinFits = 38;
constexpr double kMemoryMapePct = 9.7;  // torchtitan's measured peaks (Q01-Q14), both files

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

ValidationReport ValidateFile(const char* name) {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(std::string(PARAPLAN_SOURCE_DIR "/docs/validation/") + name);
  REQUIRE(runs.size() == 38);
  ValidationOptions options;
  options.threads = 2;  // CI has 2 cores
  options.run.simulate_top = 2;
  return ValidateRuns(runs, options);
}

}  // namespace

// Issue 6 asks for step-time MAPE <= 10% and every published plan fitting. The adjusted file
// (torchtitan rows on the parts they ran on) meets it; the unchanged copy, which models those
// 500 W HBM2e parts as 700 W HBM3 ones, does not yet (docs/validation.md has the numbers and the
// reasons). The bounds are what the model holds today, asserted so that a change that makes
// validation worse fails. Tighten them as the model improves; never loosen them.
TEST_CASE("Public runs (adjusted for the torchtitan parts): current error bounds",
          "[validate][public]") {
  const ValidationReport report = ValidateFile("public_runs_adjusted.yaml");
  INFO(Failures(report));
  const auto& step = report.all.metrics.at("step_time_s");
  WARN("adjusted runs: step-time MAPE " << FormatFixed(step.mape_pct, 1) << "% over " << step.n
                                        << ", fits " << report.all.fits_fit << "/"
                                        << report.all.fits_n);
  CHECK(report.all.errors == 0);
  CHECK(step.n == 38);
  CHECK(step.mape_pct <= kAdjustedStepTimeMapePct);
  CHECK(report.all.fits_fit >= kAdjustedMinFits);
  CHECK(report.all.metrics.at("memory_GiB").mape_pct <= kMemoryMapePct);
  const auto& held = report.held_out.metrics.at("step_time_s");
  CHECK(held.mape_pct <= kAdjustedHeldOutMapePct);
}

TEST_CASE("Public runs (unchanged copy): current error bounds", "[validate][public]") {
  const ValidationReport report = ValidateFile("public_runs.yaml");
  INFO(Failures(report));
  const auto& step = report.all.metrics.at("step_time_s");
  WARN("published runs: step-time MAPE " << FormatFixed(step.mape_pct, 1) << "% over " << step.n
                                         << ", fits " << report.all.fits_fit << "/"
                                         << report.all.fits_n);
  CHECK(report.all.errors == 0);
  CHECK(step.n == 38);
  CHECK(step.mape_pct <= kUnchangedStepTimeMapePct);
  CHECK(report.all.fits_fit >= kUnchangedMinFits);
  CHECK(report.all.metrics.at("memory_GiB").mape_pct <= kMemoryMapePct);
}
