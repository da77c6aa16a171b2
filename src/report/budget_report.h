// The budget part of `plan`'s reports: per plan, time to train, GPU-hours and dollars with the
// step-time band (search/budget.h), as a text table and as JSON fields.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "report/plan_reporter.h"

namespace paraplan {

// "Budget ..." heading, the band's source line and one row per plan.
std::string BudgetTable(const PlanReportContext& context, const std::vector<StepResult>& plans);

// {"tokens", "tokens_per_step", "step_time_s": {value, low, high}, "days": {...},
//  "gpu_hours": {...}, "usd": {...} (with a price)} for one plan.
Json BudgetJson(const PlanReportContext& context, const StepResult& result);

// "12.3 (10.8-14.5)": a value and its band, `digits` decimals.
std::string FormatBanded(const Banded& b, int digits);

}  // namespace paraplan
