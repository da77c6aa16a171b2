// The plan search: enumerate → rules → memory → analytical estimate (all threads) → simulate the
// best N → rank. Deterministic whatever the thread count.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cost/step_result.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/plan_constraints.h"
#include "search/skip_tally.h"

namespace paraplan {

enum class Objective { kStepTime, kCost, kMemory };

// The default cut of the Pareto front: a point more than twice as slow as the fastest one
// doubles the run's days and GPU-hours to save memory that no plan on the front needs to fit.
inline constexpr double kParetoMaxSlowdown = 2.0;

struct SearchOptions {
  int threads = 0;            // 0 = all hardware threads
  int64_t simulate_top = 64;  // re-run this many of the best estimates in the simulator
  int64_t top_k = 10;         // plans to return (after folding equivalent plans)
  int64_t pareto_k = 10;      // Pareto points to return, spread along the front
  // Front points slower than this many times the fastest front point are cut before thinning
  // (docs/search.md, "The Pareto front's useful range"); 0 keeps the whole front.
  double pareto_max_slowdown = kParetoMaxSlowdown;
  Objective objective = Objective::kStepTime;
  // Evaluate every plan (no pruning by bounds, docs/search.md "Pruning"): same plans, same
  // ranking, slower; `plan --exhaustive` and the tests that check the pruning use it.
  bool exhaustive = false;
  // Called now and then with (evaluated, total) from the calling thread; may be empty.
  std::function<void(int64_t, int64_t)> progress;
};

struct SearchResult {
  std::vector<StepResult> plans;      // the top K, best first, one per equivalence class
  std::vector<int64_t> plans_folded;  // per plan: equivalent plans folded into it
  int64_t folded = 0;                 // all folded plans (search/plan_folding.h)
  std::vector<StepResult> pareto;     // (step time, peak memory) front, by step time, thinned
  int64_t pareto_total = 0;           // points on the (folded) front before thinning to pareto_k
  // Of pareto_total: points slower than pareto_cut_step_s (pareto_max_slowdown times the fastest
  // front point's step time), left out before thinning; pareto_cut_step_s is 0 without a cut.
  int64_t pareto_cut = 0;
  double pareto_cut_step_s = 0;
  // Of `pareto`: points left to their analytical estimate (simulated false), front points beyond
  // the best N whose schedules were over the simulator's budget (search_core.h,
  // kFrontSimulationTasks). The top K are always simulated.
  int64_t front_estimated = 0;
  int64_t searched = 0;  // plans enumerated
  int64_t feasible = 0;  // evaluated plans that obey the rules and fit in memory
  // Rule-valid plans never costed because their lower bounds (search/plan_bounds.h) showed they
  // cannot fit (pruned_memory) or cannot enter the top N or the Pareto front (some of them only
  // once their exact peak memory was known); 0 when exhaustive.
  int64_t pruned = 0;
  int64_t pruned_memory = 0;  // of `pruned`: memory lower bound above the GPU's memory
  int64_t evaluated = 0;      // plans costed in full by the model (rule-valid and not pruned)
  // Candidates skipped because they break a rule (never an abort), by rule, most frequent first.
  std::vector<SkipReason> skipped;
  int64_t skipped_total = 0;
  double seconds = 0;
  // When no plan fit with the default memory recipe and this one did (search/memory_relief.h):
  // its knobs ("optimizer_moments=bf16"); empty otherwise. Every plan carries the recipe.
  std::string memory_relief;
  // When nothing fits: the plans that came closest (by memory over capacity), and why.
  std::vector<StepResult> closest;
  std::string why_nothing_fits;
};

SearchResult SearchPlans(const ModelSpec& model, const Cluster& cluster, int64_t gpus,
                         const PlanConstraints& constraints, const SearchOptions& options);

}  // namespace paraplan
