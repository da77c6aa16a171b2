// The JSON object of one plan's answer (DESIGN.md "JSON output"): simulate and explain print
// it, plan / validate / study embed it. Memory in GiB, times in seconds.
#pragma once

#include "core/json.h"
#include "cost/step_result.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// {tp: .., pp: .., ..., schedule: ..} then the other knobs (moe_routing, ..., overlap_pp_comm).
Json PlanToJson(const ParallelPlan& plan);

// {"plan", "fits", "step_time_s", "tokens_per_s_per_gpu", "mfu", "hfu", "memory_GiB",
//  "memory": {"capacity_GiB", "per_stage": [...]}, "time": {...}, "simulated", "notes"}.
Json StepResultToJson(const StepResult& result);

}  // namespace paraplan
