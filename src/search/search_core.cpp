#include "search/search_core.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "search/bound_cache.h"
#include "search/candidates.h"
#include "search/nothing_fits.h"
#include "search/objective.h"
#include "search/rule_cache.h"
#include "search/simulate_rank.h"
#include "search/skip_tally.h"

namespace paraplan {
namespace {

// More than the report shows: plans that differ only in time knobs (overlap, schedule) share a
// memory footprint, and ExplainNothingFits lists distinct footprints.
constexpr size_t kClosestKept = 64;

struct WorkerState {
  explicit WorkerState(size_t keep) : best(keep), closest(kClosestKept) {}
  BestN best;
  BestN closest;  // rule-valid plans that do not fit, by memory over capacity
  ParetoFront front;
  int64_t valid = 0;
  int64_t feasible = 0;
  int64_t first_invalid = std::numeric_limits<int64_t>::max();
  int64_t evaluated = 0;      // plans costed (PeakMemoryBytes asked)
  int64_t pruned = 0;         // rule-valid plans the bounds showed cannot matter
  int64_t pruned_memory = 0;  // of which: memory lower bound above capacity
  SkipTally skipped;          // candidates that broke a rule, by rule
  void Merge(const WorkerState& s) {
    best.Merge(s.best);
    closest.Merge(s.closest);
    front.Merge(s.front);
    valid += s.valid;
    feasible += s.feasible;
    first_invalid = std::min(first_invalid, s.first_invalid);
    evaluated += s.evaluated;
    pruned += s.pruned;
    pruned_memory += s.pruned_memory;
    skipped.Merge(s.skipped);
  }
};

// A worker's caches, kept across chunks (they are per shape, and chunks of one shape follow one
// another on a worker often enough).
struct WorkerCaches {
  explicit WorkerCaches(const PlanEvaluator& evaluator) : rules(evaluator) {}
  BoundCache bounds;
  RuleCache rules;
};

struct ScanContext {
  const PlanSpace& space;
  const PlanEvaluator& evaluator;
  const SearchOptions& options;
  int64_t model_seq_len;
  double capacity_bytes;
  bool prune;
};

// True when a plan with these lower bounds can enter neither the best N nor the front.
bool CannotMatter(const ScanContext& ctx, const ParallelPlan& plan, double step_s,
                  double memory_bytes, const WorkerState* before, const WorkerState& state) {
  // Either set's N-th best is at least the merged N-th best, and either front's points are
  // feasible plans: the two tests may draw on different sets.
  const double score = ObjectiveScore(ctx.options.objective, step_s, memory_bytes, plan,
                                      ctx.space.gpus(), ctx.model_seq_len);
  auto beyond = [score](const BestN& best) { return best.full() && score > best.worst().score; };
  if (!beyond(state.best) && !(before && beyond(before->best))) return false;
  return state.front.DominatesAllAbove(step_s, memory_bytes) ||
         (before && before->front.DominatesAllAbove(step_s, memory_bytes));
}

// Branch and bound against this chunk's own best N and front (state starts empty for every
// chunk, so what is pruned does not depend on the threads): a plan is pruned when its memory
// bound exceeds the capacity, or when its score bound is above the chunk's N-th best and a front
// point dominates its (step, memory) bounds — then it can be in neither the merged best N nor the
// merged front, which is all the rest of the search reads.
//
// The any-overlap terms are tried first: their memory bound is the exact terms' and their step
// bound lower, and CannotMatter only gets truer as the step bound grows, so a plan they prune the
// exact terms prune too: what is pruned, and every count, is the same as with the exact terms
// alone, for far fewer layer costings.
bool Pruned(const ScanContext& ctx, const PlanCursor& cursor, const WorkerState* before,
            BoundCache& cache, PlanBounds& b, const PlanBoundTerms*& terms, WorkerState& state) {
  const ParallelPlan& plan = cursor.plan();
  terms = nullptr;
  try {
    b = cache.LooseBounds(ctx.evaluator, ctx.space, cursor);
    if (b.memory_bytes > ctx.capacity_bytes) {
      ++state.pruned;
      ++state.pruned_memory;
      return true;
    }
    if (CannotMatter(ctx, plan, b.step_s, b.memory_bytes, before, state)) {
      ++state.pruned;
      return true;
    }
    terms = &cache.Exact(ctx.evaluator, ctx.space, cursor);
    // The exact terms' memory bound is the any-overlap terms' (tested): only the step is new.
    b.step_s = ctx.evaluator.StepBound(plan, *terms);
  } catch (const InputError&) {
    b = PlanBounds{};
    terms = nullptr;
    return false;  // evaluated in full, where the error is counted
  }
  if (!CannotMatter(ctx, plan, b.step_s, b.memory_bytes, before, state)) return false;
  ++state.pruned;
  return true;
}

// Asks for the step time of a plan that fits unless, pruning, its exact peak memory (far tighter
// than its bound) with the step bound shows that it cannot matter.
class FitGate : public StepGate {
 public:
  FitGate(const ScanContext& ctx, const ParallelPlan& plan, double step_bound,
          const WorkerState* before, const WorkerState& state)
      : ctx_(ctx), plan_(plan), step_bound_(step_bound), before_(before), state_(state) {}
  bool NeedStep(double memory) const override {
    if (memory > ctx_.capacity_bytes) return false;
    return !(ctx_.prune && CannotMatter(ctx_, plan_, step_bound_, memory, before_, state_));
  }

 private:
  const ScanContext& ctx_;
  const ParallelPlan& plan_;
  double step_bound_;
  const WorkerState* before_;
  const WorkerState& state_;
};

void ScanChunk(const ScanContext& ctx, int64_t begin, int64_t end, const WorkerState* before,
               WorkerCaches& caches, WorkerState& state) {
  for (PlanCursor cursor(ctx.space, begin); cursor.index() < end; cursor.Next()) {
    const ParallelPlan& plan = cursor.plan();
    const std::string* broken = caches.rules.FirstBroken(ctx.evaluator, ctx.space, cursor);
    if (broken != nullptr) {
      state.first_invalid = std::min(state.first_invalid, cursor.index());
      state.skipped.AddKey(*broken);
      continue;
    }
    PlanBounds bounds;
    const PlanBoundTerms* terms = nullptr;
    if (ctx.prune && Pruned(ctx, cursor, before, caches.bounds, bounds, terms, state)) continue;
    double memory = 0;
    double step = 0;
    try {  // a rule the cost model enforces that PlanViolations missed: skip, never abort
      std::unique_ptr<CostMemo>* memo = terms != nullptr ? caches.bounds.Memo(plan) : nullptr;
      const PlanCost cost =
          ctx.evaluator.Cost(plan, terms, FitGate(ctx, plan, bounds.step_s, before, state), memo);
      memory = cost.memory_bytes;
      if (memory <= ctx.capacity_bytes && !cost.stepped) {  // pruned by its exact memory
        ++state.pruned;
        continue;
      }
      step = cost.step_s;
    } catch (const InputError& e) {
      ++state.evaluated;
      state.first_invalid = std::min(state.first_invalid, cursor.index());
      state.skipped.Add(e.message());
      continue;
    }
    ++state.evaluated;
    ++state.valid;
    if (memory > ctx.capacity_bytes) {
      state.closest.Add({memory - ctx.capacity_bytes, 0, memory, cursor.index()});
      continue;
    }
    ++state.feasible;
    const double score = ObjectiveScore(ctx.options.objective, step, memory, plan, ctx.space.gpus(),
                                        ctx.model_seq_len);
    const Candidate c{score, step, memory, cursor.index()};
    state.best.Add(c);
    state.front.Add(c);
  }
}

// Phase 1: every plan through rules → memory → estimate, chunks handed out in order. With
// pruning the chunks go in rounds of kPruneRoundChunks: a round prunes against what the rounds
// before it kept (their merged best N and front, the same whatever the threads) and against each
// chunk's own.
WorkerState Scan(const ScanContext& ctx, int threads) {
  const int64_t total = ctx.space.size();
  const int64_t chunk_plans = ctx.prune ? kPrunedChunkPlans : kSearchChunkPlans;
  const int64_t chunks = (total + chunk_plans - 1) / chunk_plans;
  const int64_t per_round = ctx.prune ? kPruneRoundChunks : std::max<int64_t>(chunks, 1);
  const size_t keep = static_cast<size_t>(std::max(ctx.options.simulate_top, ctx.options.top_k));
  WorkerState merged(keep);
  std::vector<WorkerCaches> caches;
  caches.reserve(static_cast<size_t>(threads));
  for (int i = 0; i < threads; ++i) caches.emplace_back(ctx.evaluator);
  int64_t done = 0;
  for (int64_t first = 0; first < chunks; first += per_round) {
    const int64_t last = std::min(chunks, first + per_round);
    std::vector<WorkerState> states(static_cast<size_t>(threads), WorkerState(keep));
    std::atomic<int64_t> next_chunk{first};
    std::atomic<int64_t> round_done{done};
    RunOnWorkers(threads, [&](int worker) {
      WorkerState& state = states[static_cast<size_t>(worker)];
      WorkerCaches& cache = caches[static_cast<size_t>(worker)];
      for (int64_t chunk = next_chunk++; chunk < last; chunk = next_chunk++) {
        const int64_t begin = chunk * chunk_plans;
        const int64_t end = std::min(total, begin + chunk_plans);
        if (ctx.prune) {
          WorkerState local(keep);
          ScanChunk(ctx, begin, end, &merged, cache, local);
          state.Merge(local);
        } else {
          ScanChunk(ctx, begin, end, nullptr, cache, state);
        }
        const int64_t so_far = round_done += end - begin;
        if (worker == 0 && ctx.options.progress) ctx.options.progress(so_far, total);
      }
    });
    for (const WorkerState& s : states) merged.Merge(s);
    done = std::min(total, last * chunk_plans);
  }
  if (ctx.options.progress) ctx.options.progress(total, total);
  return merged;
}

}  // namespace

SearchResult SearchSpace(const PlanSpace& space, const PlanEvaluator& evaluator,
                         int64_t model_seq_len, const SearchOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const int threads = ResolveThreads(options.threads);
  const bool prune = !options.exhaustive && evaluator.HasBounds();
  ScanContext ctx{space, evaluator, options, model_seq_len, evaluator.MemoryCapacityBytes(), prune};
  SearchResult result;
  result.searched = space.size();
  WorkerState merged = Scan(ctx, threads);
  if (merged.feasible == 0 && merged.pruned > 0) {
    // Nothing fits: the explanation needs every plan's memory (the closest ones, the valid
    // count, what the cost model refused), so the space is scanned again without pruning.
    ctx.prune = false;
    merged = Scan(ctx, threads);
  }
  result.pruned = merged.pruned;
  result.pruned_memory = merged.pruned_memory;
  result.evaluated = merged.evaluated;
  result.feasible = merged.feasible;
  if (merged.feasible == 0) {
    NothingFitsInput input;
    for (const Candidate& c : merged.closest.Sorted()) input.closest.push_back(c.index);
    input.valid = merged.valid;
    if (merged.first_invalid != std::numeric_limits<int64_t>::max()) {
      input.first_invalid = merged.first_invalid;
    }
    input.skipped = merged.skipped.Sorted();
    ExplainNothingFits(space, evaluator, input, result);
  } else {
    size_t best = 0;
    std::vector<int64_t> list = SimulationList(merged.best, merged.front, options, &best);
    std::vector<uint8_t> simulated;
    const SkipTally before_simulation = merged.skipped;
    const std::vector<StepResult> sims =
        SimulateAll(space, evaluator, list, best, threads, merged.skipped, simulated);
    RankSimulated(sims, list, simulated, RankContext{space, options, model_seq_len}, result);
    if (result.plans.empty()) {  // every plan that fit was refused when simulated: say why
      std::string why;           // the reasons the simulation added to the tally
      const std::vector<SkipReason> earlier = before_simulation.Sorted();
      for (const SkipReason& r : merged.skipped.Sorted()) {
        int64_t count = r.count;
        for (const SkipReason& e : earlier) count -= e.rule == r.rule ? e.count : 0;
        if (count > 0) why += "\n  " + std::to_string(count) + " x " + r.rule;
      }
      result.why_nothing_fits =
          std::to_string(merged.feasible) +
          " plans fit in memory, but the simulator refused each one it ran:" + why + "\n";
    }
  }
  result.skipped = merged.skipped.Sorted();
  result.skipped_total = merged.skipped.Total();
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace paraplan
