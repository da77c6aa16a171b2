// The search's last step (search_core.h): which of the scanned plans to simulate (the best N and
// points spread along the Pareto front, within a simulation budget), simulating them on the
// worker pool, and ranking the results by the objective with equivalent plans folded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cost/step_result.h"
#include "search/candidates.h"
#include "search/plan_evaluator.h"
#include "search/plan_space.h"
#include "search/search.h"
#include "search/search_core.h"
#include "search/skip_tally.h"

namespace paraplan {

// The plans to simulate: the best max(N, K) (`*best` of them), then front points not among
// them (at most kMaxSimulatedFront, spread evenly along the front), in a fixed order.
std::vector<int64_t> SimulationList(const BestN& merged_best, const ParetoFront& merged_front,
                                    const SearchOptions& options, size_t* best);

// Simulates list[i] for i < `always` (the best N) and, in list order, each later plan (front
// points) whose ScheduleTasks fits in what is left of kFrontSimulationTasks; the others get the
// analytical estimate (`simulate` says which ran). A plan the simulator refuses (a schedule rule
// the rules and the estimate let through) is dropped from `indices` and counted in `skipped`, in
// list order so the result is deterministic.
std::vector<StepResult> SimulateAll(const PlanSpace& space, const PlanEvaluator& evaluator,
                                    std::vector<int64_t>& indices, size_t always, int threads,
                                    SkipTally& skipped, std::vector<uint8_t>& simulate);

// What ranking reads besides the results: the space (its GPU count), the objective, top K and
// pareto_k, and the model's sequence length.
struct RankContext {
  const PlanSpace& space;
  const SearchOptions& options;
  int64_t model_seq_len;
};

// Ranks by the objective (ties: step time, then the plan's index), folds plans equivalent to a
// better-ranked one (plan_folding.h) and keeps the top K; the front is folded the same way, cut
// to pareto_max_slowdown times its fastest point's step time (the count and the cut in
// result.pareto_cut, pareto_cut_step_s) and thinned to pareto_k points spread along it.
void RankSimulated(const std::vector<StepResult>& sims, const std::vector<int64_t>& indices,
                   const std::vector<uint8_t>& simulated, const RankContext& ctx,
                   SearchResult& result);

}  // namespace paraplan
