#include "validate/metric_summary.h"

#include <algorithm>
#include <cmath>

namespace paraplan {

bool IsValidationMetric(const std::string& name) {
  return std::any_of(kValidationMetrics.begin(), kValidationMetrics.end(),
                     [&name](const char* metric) { return name == metric; });
}

double ErrorPct(double predicted, double measured) {
  return (predicted - measured) / measured * 100.0;
}

MetricSummary Summarize(const std::vector<double>& error_pcts) {
  MetricSummary summary;
  if (error_pcts.empty()) return summary;
  double sum_abs = 0;
  for (double e : error_pcts) {
    sum_abs += std::abs(e);
    summary.max_abs_pct = std::max(summary.max_abs_pct, std::abs(e));
  }
  summary.n = static_cast<int64_t>(error_pcts.size());
  summary.mape_pct = sum_abs / static_cast<double>(error_pcts.size());
  return summary;
}

}  // namespace paraplan
