// The numbers a study reports for each point, and how a chart labels them.
#pragma once

#include <string>
#include <vector>

#include "cost/step_result.h"
#include "search/budget.h"

namespace paraplan {

// Every metric column, in CSV order: step_time_s, tokens_per_s_per_gpu, mfu, hfu, memory_GiB,
// bubble_fraction, then the time breakdown (compute_s ... optimizer_s), then the budget of the
// study's `tokens:` (goodput, interruptions, checkpoint_interval_s, days, wall_days,
// wall_gpu_hours, energy_MWh; NaN without `tokens:`).
const std::vector<std::string>& StudyMetricNames();

// True for the names of the time breakdown (reported under "time" in JSON).
bool IsTimeComponent(const std::string& name);

// "time.dp_comm_exposed_s" → "dp_comm_exposed_s"; throws InputError listing the valid names
// when the metric is unknown.
std::string CanonicalMetric(const std::string& name);

// The metric values of a result, in StudyMetricNames() order; the budget ones from `budget`
// (NaN when it is null).
std::vector<double> MetricValues(const StepResult& result, const PlanBudget* budget = nullptr);

// A metric for a reader: its heading with the unit ("step time (s)", "MFU (%)") and a value
// rounded to what the model can say ("52.1", "1,150", "0.0123"; "-" for NaN).
std::string MetricHeading(const std::string& metric);
std::string FormatMetric(const std::string& metric, double value);

// A chart's y axis for a metric: a label with its unit and the factor the values are scaled by
// (times pick s, ms or µs from the largest value).
struct MetricAxis {
  std::string label;
  double scale = 1.0;
};
MetricAxis AxisForMetric(const std::string& metric, double max_value);

// A readable axis label for a swept key, with its unit ("scaleout bandwidth (GB/s)").
std::string LabelForKey(const std::string& key);

// A short name for legends (scaleout.bandwidth_GBps, tp).
std::string ShortKey(const std::string& key);

}  // namespace paraplan
