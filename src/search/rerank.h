// Re-ranking the search's top plans after the search (`plan`): by expected wall-clock time to
// train when --tokens is given (goodput included, search/budget.h), then by memory headroom
// (--headroom: plans whose peak stays under that share of the GPU's memory first; equal step
// times put the lower-memory plan first). Each keeps the per-plan fold counts in step.
#pragma once

#include <cstdint>

#include "search/budget.h"
#include "search/search.h"

namespace paraplan {

// The default --headroom: validate's memory MAPE over the published runs with a measured peak
// (11.2 %, n = 16; docs/validation.md, "In-sample summary"), rounded to whole percent.
constexpr double kDefaultHeadroomPct = 11;

// With --tokens: stable order by expected wall-clock days to train. `model_seq_len` stands for a
// plan's seq_len 0. Nothing changes without tokens.
void RankByWallClock(SearchResult& result, int64_t gpus, int64_t model_seq_len,
                     const BudgetRequest& request);

// True when the plan's peak memory is at most (1 - headroom_pct / 100) of the GPU's memory.
bool InsideHeadroom(const StepResult& result, double headroom_pct);

// Plans inside the headroom first (stable); among neighbours whose step times agree to 1 ms, the
// lower peak memory first.
void RankByHeadroom(SearchResult& result, double headroom_pct);

}  // namespace paraplan
