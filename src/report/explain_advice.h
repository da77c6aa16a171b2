// `explain`'s advice as data: the dominant time cost and what would relieve it, the memory
// overflow and what would relieve it (nothing that needs more memory when the plan does not fit),
// and the nearest plan that fits (search/nearest_fit.h) with the knobs it changes. The JSON list
// goes out as "advice_items" beside the "advice" text.
#pragma once

#include <optional>
#include <string>

#include "core/json.h"
#include "cost/step_result.h"
#include "report/plan_reporter.h"
#include "search/nearest_fit.h"

namespace paraplan {

struct NearestFitResult {
  NearestFit fit;
  StepResult result;  // simulated
};

// [{"kind": "time", "cost", "seconds", "suggestions": [...]},
//  {"kind": "memory", "stage", "part", "part_GiB", "over_GiB", "suggestions": [...]},
//  {"kind": "nearest_fit", "changes": [...], "distance", "step_time_s", "memory_GiB",
//   "plan_string", "rerun"} or {"kind": "nearest_fit", "found": false}]
Json AdviceItemsJson(const StepResult& result, const std::optional<NearestFitResult>& nearest,
                     bool nearest_searched, const PlanReportContext& context);

// "nearest plan that fits (2 changes: recompute: none -> full, zero: 0 -> 1): step 1.234 s,
// 71.2 GiB\n  re-run: paraplan simulate ...\n", or that none fits.
std::string NearestFitText(const std::optional<NearestFitResult>& nearest,
                           const PlanReportContext& context);

}  // namespace paraplan
