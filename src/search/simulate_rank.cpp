#include "search/simulate_rank.h"

#include <algorithm>
#include <atomic>
#include <string>

#include "core/error.h"
#include "core/thread_pool.h"
#include "search/objective.h"
#include "search/plan_folding.h"

namespace paraplan {
namespace {

struct Ranked {
  double score;
  double step_s;
  int64_t index;
  size_t slot;
};

}  // namespace

// The plans to simulate: the best max(N, K) (`*best` of them), then front points not among
// them (at most kMaxSimulatedFront, spread evenly along the front), in a fixed order.
std::vector<int64_t> SimulationList(const BestN& merged_best, const ParetoFront& merged_front,
                                    const SearchOptions& options, size_t* best) {
  const int64_t simulate = std::max<int64_t>({options.simulate_top, options.top_k, 1});
  std::vector<int64_t> list;
  for (const Candidate& c : merged_best.Sorted()) {
    if (static_cast<int64_t>(list.size()) < simulate) list.push_back(c.index);
  }
  *best = list.size();
  const auto& front = merged_front.points();
  const size_t n = front.size();
  const size_t take = std::min(n, kMaxSimulatedFront);
  for (size_t i = 0; i < take; ++i) {
    const size_t at = take == 1 ? 0 : i * (n - 1) / (take - 1);
    const int64_t index = front[at].index;
    if (std::find(list.begin(), list.end(), index) == list.end()) list.push_back(index);
  }
  return list;
}

// Simulates list[i] for i < `always` (the best N) and, in list order, each later plan (front
// points) whose ScheduleTasks fits in what is left of kFrontSimulationTasks; the others get the
// analytical estimate (`simulate` says which ran). A plan the simulator refuses (a schedule rule
// the rules and the estimate let through) is dropped from `indices` and counted in `skipped`, in
// list order so the result is deterministic.
std::vector<StepResult> SimulateAll(const PlanSpace& space, const PlanEvaluator& evaluator,
                                    std::vector<int64_t>& indices, size_t always, int threads,
                                    SkipTally& skipped, std::vector<uint8_t>& simulate) {
  std::vector<StepResult> results(indices.size());
  std::vector<std::string> errors(indices.size());
  if (indices.empty()) return results;
  simulate.assign(indices.size(), 1);
  double budget = kFrontSimulationTasks;
  for (size_t i = always; i < indices.size(); ++i) {
    const double tasks = ScheduleTasks(space.At(indices[i]));
    if (tasks > budget) {
      simulate[i] = 0;
    } else {
      budget -= tasks;
    }
  }
  std::atomic<size_t> next{0};
  RunOnWorkers(std::min<int>(threads, static_cast<int>(indices.size())), [&](int) {
    for (size_t i = next++; i < indices.size(); i = next++) {
      const ParallelPlan plan = space.At(indices[i]);
      try {
        results[i] = simulate[i] ? evaluator.Simulate(plan) : evaluator.Estimate(plan);
      } catch (const InputError& e) {
        errors[i] = e.message();
        if (errors[i].empty()) errors[i] = "the simulator refused the plan";
      }
    }
  });
  size_t kept = 0;
  for (size_t i = 0; i < indices.size(); ++i) {
    if (!errors[i].empty()) {
      skipped.Add(errors[i]);
      continue;
    }
    if (kept != i) {  // never self-move: that would empty the result's vectors
      indices[kept] = indices[i];
      results[kept] = std::move(results[i]);
      simulate[kept] = simulate[i];
    }
    ++kept;
  }
  indices.resize(kept);
  results.resize(kept);
  simulate.resize(kept);
  return results;
}

// Ranks by the objective (ties: step time, then the plan's index), folds plans equivalent to a
// better-ranked one (plan_folding.h) and keeps the top K; the front is folded the same way and
// cut to pareto_max_slowdown times its fastest point's step time and thinned to pareto_k points
// spread along it.
void RankSimulated(const std::vector<StepResult>& sims, const std::vector<int64_t>& indices,
                   const std::vector<uint8_t>& simulated, const RankContext& ctx,
                   SearchResult& result) {
  std::vector<Ranked> order;
  ParetoFront front;
  for (size_t i = 0; i < sims.size(); ++i) {
    const StepResult& r = sims[i];
    const double score = ObjectiveScore(ctx.options.objective, r.step_time_s, r.peak_memory_bytes,
                                        r.plan, ctx.space.gpus(), ctx.model_seq_len);
    order.push_back({score, r.step_time_s, indices[i], i});
    front.Add({score, r.step_time_s, r.peak_memory_bytes, static_cast<int64_t>(i)});
  }
  std::sort(order.begin(), order.end(), [](const Ranked& a, const Ranked& b) {
    if (a.score != b.score) return a.score < b.score;
    return a.step_s != b.step_s ? a.step_s < b.step_s : a.index < b.index;
  });
  std::vector<FoldKey> kept;
  for (const Ranked& r : order) {
    if (!simulated[r.slot]) continue;  // a front point over the budget ranks on the front only
    const FoldKey key = FoldKeyOf(sims[r.slot]);
    const auto same = std::find(kept.begin(), kept.end(), key);
    if (same != kept.end()) {
      ++result.plans_folded[static_cast<size_t>(same - kept.begin())];
      ++result.folded;
      continue;
    }
    if (static_cast<int64_t>(result.plans.size()) >= ctx.options.top_k) continue;
    kept.push_back(key);
    result.plans.push_back(sims[r.slot]);
    result.plans_folded.push_back(0);
  }
  // Front keys are slots; equal (step, memory) pairs keep the lower slot, and slots follow the
  // deterministic simulation list, so the front is the same for any thread count.
  std::vector<StepResult> folded_front;
  std::vector<size_t> front_slots;
  for (const Candidate& c : front.points()) {
    const StepResult& r = sims[static_cast<size_t>(c.index)];
    if (!folded_front.empty() && FoldKeyOf(folded_front.back()) == FoldKeyOf(r)) continue;
    folded_front.push_back(r);
    front_slots.push_back(static_cast<size_t>(c.index));
  }
  result.pareto_total = static_cast<int64_t>(folded_front.size());
  size_t useful = folded_front.size();
  if (ctx.options.pareto_max_slowdown > 0 && !folded_front.empty()) {
    result.pareto_cut_step_s = ctx.options.pareto_max_slowdown * folded_front.front().step_time_s;
    while (useful > 1 && folded_front[useful - 1].step_time_s > result.pareto_cut_step_s) --useful;
    result.pareto_cut = static_cast<int64_t>(folded_front.size() - useful);
  }
  const auto limit = static_cast<size_t>(std::max<int64_t>(ctx.options.pareto_k, 0));
  for (size_t at : SpreadEvenly(useful, limit)) {
    result.pareto.push_back(folded_front[at]);
    if (!simulated[front_slots[at]]) ++result.front_estimated;
  }
}

double ScheduleTasks(const ParallelPlan& plan) {
  return 2.0 * static_cast<double>(plan.pp) * static_cast<double>(std::max<int64_t>(plan.vpp, 1)) *
         static_cast<double>(std::max<int64_t>(plan.MicroBatches(), 1));
}

}  // namespace paraplan
