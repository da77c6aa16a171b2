// What the search ranks by (SearchOptions::objective) and the cost measure it uses.
#pragma once

#include <cstdint>
#include <string>

#include "plan/parallel_plan.h"
#include "search/search.h"

namespace paraplan {

// "step_time", "cost", "memory".
const char* ToString(Objective objective);
// Parses one of the names above; throws InputError listing them otherwise.
Objective ParseObjective(const std::string& text);

// Tokens one step trains: global batch × sequence length (the plan's, else the model's).
double TokensPerStep(const ParallelPlan& plan, int64_t model_seq_len);

// GPU-hours per billion training tokens: gpus × step / 3600 s/h ÷ (tokens per step / 1e9).
double GpuHoursPerBillionTokens(double step_s, int64_t gpus, double tokens_per_step);

// The number the ranking minimises for a plan with this step time and peak memory.
double ObjectiveScore(Objective objective, double step_s, double peak_memory_bytes,
                      const ParallelPlan& plan, int64_t gpus, int64_t model_seq_len);

}  // namespace paraplan
