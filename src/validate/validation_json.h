// The JSON of `paraplan validate --format json` (DESIGN.md "JSON output"): {"runs": [...],
// "summary": {...}} plus "holdout" (the summaries of the runs the efficiency fit saw and of the
// held-out ones) and "ranking" (validate/plan_ranking_json.h).
#pragma once

#include "core/json.h"
#include "plan/parallel_plan.h"
#include "validate/validation_report.h"

namespace paraplan {

// {tp: 8, pp: 4, ..., schedule: 1f1b}: the plan keys of DESIGN.md's plan object.
Json ValidationPlanJson(const ParallelPlan& plan);

// {"id","status","message","fits","plan","predicted","measured","error_pct","searched","held_out"}
Json RunOutcomeJson(const RunOutcome& run);

// {"step_time_s": {"n","mape_pct","max_abs_pct"}, ..., "fits": {"n","fit"}}
Json SummarySetJson(const SummarySet& set);

Json ValidationReportJson(const ValidationReport& report);

}  // namespace paraplan
