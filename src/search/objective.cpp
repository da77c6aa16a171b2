#include "search/objective.h"

#include "core/error.h"

namespace paraplan {

const char* ToString(Objective objective) {
  switch (objective) {
    case Objective::kStepTime:
      return "step_time";
    case Objective::kCost:
      return "cost";
    case Objective::kMemory:
      return "memory";
  }
  return "?";
}

Objective ParseObjective(const std::string& text) {
  for (Objective o : {Objective::kStepTime, Objective::kCost, Objective::kMemory}) {
    if (text == ToString(o)) return o;
  }
  throw InputError("--objective: unknown objective '" + text +
                   "'; valid values: step_time, cost, memory");
}

double TokensPerStep(const ParallelPlan& plan, int64_t model_seq_len) {
  const int64_t seq = plan.seq_len > 0 ? plan.seq_len : model_seq_len;
  return static_cast<double>(plan.global_batch) * static_cast<double>(seq);
}

double GpuHoursPerBillionTokens(double step_s, int64_t gpus, double tokens_per_step) {
  if (tokens_per_step <= 0) return 0;
  return static_cast<double>(gpus) * step_s / 3600.0 / (tokens_per_step / 1e9);
}

double ObjectiveScore(Objective objective, double step_s, double peak_memory_bytes,
                      const ParallelPlan& plan, int64_t gpus, int64_t model_seq_len) {
  switch (objective) {
    case Objective::kStepTime:
      return step_s;
    case Objective::kCost:
      return GpuHoursPerBillionTokens(step_s, gpus, TokensPerStep(plan, model_seq_len));
    case Objective::kMemory:
      return peak_memory_bytes;
  }
  return step_s;
}

}  // namespace paraplan
