// Prediction error against measurements: the per-metric error of one run and the summary over
// many (DESIGN.md "Runs file": error_pct = (predicted − measured) / measured × 100).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace paraplan {

// The metrics a runs file may measure, in the order every report lists them.
inline constexpr std::array<const char*, 4> kValidationMetrics = {
    "step_time_s", "tokens_per_s_per_gpu", "mfu", "memory_GiB"};

// Whether `name` is one of kValidationMetrics.
bool IsValidationMetric(const std::string& name);

// (predicted − measured) / measured × 100; measured must be non-zero.
double ErrorPct(double predicted, double measured);

// Mean absolute percentage error and the largest absolute error over a set of runs.
struct MetricSummary {
  int64_t n = 0;
  double mape_pct = 0;
  double max_abs_pct = 0;
};

// Summary of signed per-run errors (percent). Empty input gives n = 0 and zeros.
MetricSummary Summarize(const std::vector<double>& error_pcts);

}  // namespace paraplan
