// The search over an explicit space with an injectable evaluator (SearchPlans uses the real
// StepModel; tests use synthetic cost functions). Steps: rules (first violation only) → peak
// memory against capacity → analytical step time, on all threads in fixed chunks, each thread
// keeping its best candidates and its Pareto front → merge in a total order → simulate the best
// N and the front → rank by the objective.
#pragma once

#include <cstddef>
#include <cstdint>

#include "search/plan_evaluator.h"
#include "search/plan_space.h"
#include "search/search.h"

namespace paraplan {

inline constexpr int64_t kSearchChunkPlans = 4096;  // plans a thread takes at a time
// With pruning a thread takes this many at a time: the bound is the chunk's own best N and front,
// so longer chunks prune more (and the result still does not depend on the threads).
inline constexpr int64_t kPrunedChunkPlans = 8 * kSearchChunkPlans;
// Chunks per pruning round: a round prunes against everything the rounds before it kept.
inline constexpr int64_t kPruneRoundChunks = 8;
inline constexpr size_t kMaxSimulatedFront = 64;  // Pareto points re-run in the simulator
// The simulator's budget for those front points beyond the best N, in schedule tasks
// (ScheduleTasks): four times the pp = 128, vpp = 4, 2,048 micro-batch pipeline DESIGN.md asks
// the simulator to run well under a second. A front point whose schedule would take it past the
// budget keeps its analytical estimate (StepResult::simulated false); the best N are always
// simulated. Without it, a front of low-dp plans on ~100k GPUs (tens of thousands of
// micro-batches on 192 stages each) took 15 s of simulation.
inline constexpr double kFrontSimulationTasks = 8.0 * 1024 * 1024;

// Tasks the simulator runs for a plan's schedule, for the budget above: a forward and a backward
// of every micro-batch on every virtual stage, 2 · pp · vpp · micro-batches.
double ScheduleTasks(const ParallelPlan& plan);

SearchResult SearchSpace(const PlanSpace& space, const PlanEvaluator& evaluator,
                         int64_t model_seq_len, const SearchOptions& options);

}  // namespace paraplan
