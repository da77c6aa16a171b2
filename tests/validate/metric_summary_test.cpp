#include "validate/metric_summary.h"

#include <catch2/catch.hpp>

#include "validate/holdout.h"
#include "validate/validation_report.h"

using namespace paraplan;

TEST_CASE("ErrorPct is (predicted - measured) / measured in percent", "[validate]") {
  CHECK(ErrorPct(11.0, 10.0) == Approx(10.0));
  CHECK(ErrorPct(9.0, 10.0) == Approx(-10.0));
  CHECK(ErrorPct(2.0, 2.0) == Approx(0.0));
}

TEST_CASE("Summarize gives MAPE and the largest absolute error", "[validate]") {
  const MetricSummary s = Summarize({10.0, -20.0, 3.0, -1.0});
  CHECK(s.n == 4);
  CHECK(s.mape_pct == Approx(8.5));
  CHECK(s.max_abs_pct == Approx(20.0));
  const MetricSummary empty = Summarize({});
  CHECK(empty.n == 0);
  CHECK(empty.mape_pct == 0.0);
  CHECK(IsValidationMetric("memory_GiB"));
  CHECK_FALSE(IsValidationMetric("memory_GB"));
}

TEST_CASE("GpuFamily maps GPU names to efficiency families", "[validate]") {
  CHECK(GpuModel("A100-SXM4-80GB") == "A100");
  CHECK(GpuModel("H100-SXM5-80GB") == "H100");
  CHECK(GpuModel("h800-sxm") == "H800");
  CHECK(GpuModel("GB200-NVL72") == "GB200");
  CHECK(GpuModel("B200") == "B200");
  CHECK(GpuModel("MI300X") == "MI300X");
}

TEST_CASE("Every K-th run per family by id is held out", "[validate]") {
  // File order differs from id order and families interleave.
  std::vector<HoldoutKey> runs = {{"A03", "A100"}, {"E01", "H100"}, {"A01", "A100"},
                                  {"A02", "A100"}, {"E02", "H100"}, {"A04", "A100"},
                                  {"E03", "H100"}, {"E04", "H100"}, {"A05", "A100"}};
  const std::vector<bool> held = HeldOutRuns(runs, 2);
  // A100 by id: A01 A02 A03 A04 A05 → A02, A04 held; H100: E01..E04 → E02, E04 held.
  CHECK(held == std::vector<bool>{false, false, false, true, true, true, false, true, false});
  CHECK(HeldOutRuns(runs, 0) == std::vector<bool>(runs.size(), false));
  CHECK(HeldOutRuns(runs, 1) == std::vector<bool>(runs.size(), true));
}

namespace {

RunOutcome MadeOutcome(const std::string& id, double step_err, bool fits, bool ok = true) {
  RunOutcome run;
  run.id = id;
  run.gpu_family = "H100";
  run.status = ok ? RunStatus::kOk : RunStatus::kError;
  run.fits = fits;
  if (ok) run.error_pct["step_time_s"] = step_err;
  return run;
}

}  // namespace

TEST_CASE("Summaries count fits and errors and skip failed runs", "[validate]") {
  ValidationReport report;
  report.runs = {MadeOutcome("E01", 10, true), MadeOutcome("E02", -30, false),
                 MadeOutcome("E03", 5, true), MadeOutcome("E04", 0, false, false),
                 MadeOutcome("E05", -2, true)};
  report.runs[0].error_pct["memory_GiB"] = 4;
  SummarizeReport(report, 2);
  CHECK(report.all.metrics.at("step_time_s").n == 4);
  CHECK(report.all.metrics.at("step_time_s").mape_pct == Approx(47.0 / 4));
  CHECK(report.all.metrics.at("step_time_s").max_abs_pct == Approx(30));
  CHECK(report.all.metrics.at("memory_GiB").n == 1);
  CHECK(report.all.metrics.at("mfu").n == 0);
  CHECK(report.all.fits_n == 4);
  CHECK(report.all.fits_fit == 3);
  CHECK(report.all.errors == 1);
  // Held out: E02 and E04 (every 2nd by id).
  CHECK(report.runs[1].held_out);
  CHECK(report.runs[3].held_out);
  CHECK(report.held_out.metrics.at("step_time_s").n == 1);
  CHECK(report.held_out.metrics.at("step_time_s").mape_pct == Approx(30));
  CHECK(report.held_out.errors == 1);
  CHECK(report.fitted.metrics.at("step_time_s").n == 3);
  CHECK(report.fitted.metrics.at("step_time_s").mape_pct == Approx(17.0 / 3));
}
