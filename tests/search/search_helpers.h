// Helpers the search tests share: a job's constraints with one global batch, and the text of a
// search's results and skip counts for a failing check's message.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/plan_string.h"
#include "search/search.h"

namespace paraplan::test {

inline PlanConstraints WithBatch(int64_t global_batch) {
  PlanConstraints c;
  c.global_batch = std::vector<int64_t>{global_batch};
  return c;
}

// One line a plan: its string, step time and peak memory.
inline std::string Describe(const std::vector<StepResult>& results) {
  std::string out;
  for (const StepResult& r : results) {
    out += PlanString(r.plan, 0) + " step=" + std::to_string(r.step_time_s) +
           " mem=" + std::to_string(r.peak_memory_bytes) + "\n";
  }
  return out;
}

// One line a skip rule: "count x rule".
inline std::string Skips(const SearchResult& r) {
  std::string out;
  for (const SkipReason& s : r.skipped) out += std::to_string(s.count) + " x " + s.rule + "\n";
  return out;
}

}  // namespace paraplan::test
