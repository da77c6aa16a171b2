// Folding equivalent plans in the ranking. Two simulated plans are equivalent when a user cannot
// tell them apart by what they cost: the same step time to the millisecond and the same peak
// memory per GPU to 0.1 GiB (the precision the plan table prints; both rounded half away from
// zero). Permutations of dp, cp and micro-batch with one step time and overlap variants whose
// communication is hidden either way are the usual cases. The ranking keeps the best-ranked plan
// of each class and counts the others as folded into it.
#pragma once

#include <cstdint>
#include <vector>

#include "cost/step_result.h"

namespace paraplan {

struct FoldKey {
  int64_t step_ms = 0;
  int64_t memory_decigib = 0;
  bool operator==(const FoldKey& o) const {
    return step_ms == o.step_ms && memory_decigib == o.memory_decigib;
  }
};

FoldKey FoldKeyOf(const StepResult& result);

// Picks `count` of `n` points spread evenly along a front (both ends included), as indices.
std::vector<size_t> SpreadEvenly(size_t n, size_t count);

}  // namespace paraplan
