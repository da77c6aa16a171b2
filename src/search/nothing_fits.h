// When no plan fits: the closest plans' memory breakdowns and what would make them fit.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "search/plan_evaluator.h"
#include "search/plan_space.h"
#include "search/search.h"

namespace paraplan {

struct NothingFitsInput {
  std::vector<int64_t> closest;     // flat indices of rule-valid plans, closest to fitting first
  int64_t valid = 0;                // plans that obeyed the rules
  int64_t first_invalid = -1;       // lowest flat index that broke a rule (-1: none)
  std::vector<SkipReason> skipped;  // every rule-breaking candidate, by rule
};

// Fills result.closest (analytical results) and result.why_nothing_fits.
void ExplainNothingFits(const PlanSpace& space, const PlanEvaluator& evaluator,
                        const NothingFitsInput& input, SearchResult& result);

// "stage 0 needs 93.1 GiB of 80.0: weights 40.2, grads 10.1, optimizer 5.0, activations
// 38.0, other 2.0 GiB" for the stage with the highest total.
std::string MemoryBreakdownText(const StepResult& result, double capacity_bytes);

}  // namespace paraplan
