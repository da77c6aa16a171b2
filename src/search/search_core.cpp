#include "search/search_core.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <limits>
#include <unordered_map>
#include <vector>

#include "core/error.h"
#include "core/thread_pool.h"
#include "search/candidates.h"
#include "search/nothing_fits.h"
#include "search/objective.h"
#include "search/plan_folding.h"
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

// A mixed-radix key over some of a shape's knobs: the digits of the knobs it reads, the others
// ignored. Only knobs with more than one value take part, so a key costs a few multiply-adds.
class KnobKey {
 public:
  // Returns the number of distinct keys.
  template <typename Reads>
  int64_t Reset(const SpaceShape& s, Reads reads) {
    terms_ = 0;
    int64_t n = 1;
    for (int k = 0; k < kSpaceKnobs; ++k) {
      if (!reads(static_cast<SpaceKnob>(k)) || s.radix[k] <= 1) continue;
      knob_[terms_] = k;
      mult_[terms_] = n;
      ++terms_;
      n *= s.radix[k];
    }
    return n;
  }
  int64_t Of(const PlanCursor& cursor) const {
    int64_t key = 0;
    for (int i = 0; i < terms_; ++i) key += cursor.digits()[knob_[i]] * mult_[i];
    return key;
  }

 private:
  int terms_ = 0;
  std::array<int, kSpaceKnobs> knob_{};
  std::array<int64_t, kSpaceKnobs> mult_{};
};

// A worker's cache of PlanBoundTerms within one shape, at two levels, each keyed by the digits of
// the knobs its terms depend on: exact terms by the knobs MakePlanShape reads (LayerCostKnob and
// whether the schedule is DualPipe; not zero, the DP and PP knobs), any-overlap terms by those
// less the overlap switches and DualPipe (AnyOverlapKnob), so one costing bounds up to 8 plans
// more. Only speed depends on it, never a result.
class BoundCache {
 public:
  // The any-overlap terms: the same memory bound as the exact ones, a lower step bound.
  const PlanBoundTerms& Loose(const PlanEvaluator& evaluator, const PlanSpace& space,
                              const PlanCursor& cursor) {
    Enter(space, cursor.shape_index());
    return Find(evaluator, cursor, loose_slots_, loose_, loose_key_.Of(cursor), true);
  }
  // Bounds(plan, Loose(...)): the same for plans that differ only in the overlap switches (the
  // any-overlap terms do not depend on them, nor do the bounds' other inputs), so kept per key
  // of the other knobs.
  PlanBounds LooseBounds(const PlanEvaluator& evaluator, const PlanSpace& space,
                         const PlanCursor& cursor) {
    Enter(space, cursor.shape_index());
    if (bounds_.empty()) return evaluator.Bounds(cursor.plan(), Loose(evaluator, space, cursor));
    Bounded& slot = bounds_[static_cast<size_t>(bounds_key_.Of(cursor))];
    if (!slot.known) {
      slot.bounds = evaluator.Bounds(cursor.plan(), Loose(evaluator, space, cursor));
      slot.known = true;
    }
    return slot.bounds;
  }

  const PlanBoundTerms& Exact(const PlanEvaluator& evaluator, const PlanSpace& space,
                              const PlanCursor& cursor) {
    Enter(space, cursor.shape_index());
    const int64_t key =
        2 * exact_key_.Of(cursor) + (cursor.plan().schedule == Schedule::kDualPipe ? 1 : 0);
    const PlanBoundTerms& terms = Find(evaluator, cursor, exact_slots_, exact_, key, false);
    exact_at_ = static_cast<size_t>(exact_slots_.At(key));
    return terms;
  }

  // The Cost memo of the plan last given to Exact (its terms and its vpp).
  std::unique_ptr<CostMemo>* Memo(const ParallelPlan& plan) {
    if (exact_at_ >= memos_.size()) memos_.resize(exact_at_ + 1);
    auto& list = memos_[exact_at_];
    for (auto& [vpp, memo] : list) {
      if (vpp == plan.vpp) return &memo;
    }
    list.emplace_back(plan.vpp, nullptr);
    if (!spare_.empty()) {  // recycled: the evaluator refills it
      list.back().second = std::move(spare_.back());
      spare_.pop_back();
      list.back().second->filled = false;
    }
    return &list.back().second;
  }

 private:
  void Enter(const PlanSpace& space, size_t shape) {
    if (shape == shape_) return;
    shape_ = shape;
    const SpaceShape& s = space.shapes()[shape];
    const int64_t loose = loose_key_.Reset(s, AnyOverlapKnob);
    const int64_t exact = exact_key_.Reset(s, LayerCostKnob);
    const int64_t classes = bounds_key_.Reset(
        s, [](SpaceKnob k) { return k != SpaceKnob::kOverlapTp && k != SpaceKnob::kOverlapEp; });
    // Worth it only when the overlap switches take more than one value.
    if (classes < s.count && classes <= kMaxBounds) {
      bounds_.assign(static_cast<size_t>(classes), Bounded{});
    } else {
      bounds_.clear();
    }
    loose_slots_.Reset(loose);
    exact_slots_.Reset(2 * exact);
    loose_.clear();
    exact_.clear();
    for (auto& list : memos_) {
      for (auto& entry : list) {
        if (entry.second != nullptr) spare_.push_back(std::move(entry.second));
      }
    }
    memos_.clear();
    groups_.clear();
  }

  // Per key: an index into a store, or -1. Dense up to kMaxDense keys, hashed beyond.
  class Slots {
   public:
    void Reset(int64_t keys) {
      sparse_.clear();
      if (keys <= kMaxDense) {
        dense_.assign(static_cast<size_t>(keys), -1);
      } else {
        dense_.clear();
      }
    }
    int32_t& At(int64_t key) {
      if (!dense_.empty()) return dense_[static_cast<size_t>(key)];
      return sparse_.try_emplace(key, -1).first->second;
    }

   private:
    static constexpr int64_t kMaxDense = int64_t{1} << 16;
    std::vector<int32_t> dense_;
    std::unordered_map<int64_t, int32_t> sparse_;
  };

  const PlanBoundTerms& Find(const PlanEvaluator& evaluator, const PlanCursor& cursor, Slots& slots,
                             std::vector<PlanBoundTerms>& store, int64_t key, bool any_overlap) {
    int32_t& slot = slots.At(key);
    if (slot >= 0) return store[static_cast<size_t>(slot)];
    // The communicator groups depend on the shape and the placement only: the first any-overlap
    // entry with the same placement lends them (PlacePlan is a good part of the terms' cost).
    const int64_t placement = cursor.digits()[static_cast<int>(SpaceKnob::kPlacement)];
    const auto same = groups_.find(placement);
    const PlanBoundTerms* groups = same == groups_.end() ? nullptr : &loose_[same->second];
    store.push_back(evaluator.BoundTerms(cursor.plan(), groups, any_overlap));
    slot = static_cast<int32_t>(store.size() - 1);
    if (groups == nullptr && any_overlap) groups_.emplace(placement, store.size() - 1);
    return store.back();
  }

  size_t shape_ = std::numeric_limits<size_t>::max();
  KnobKey loose_key_, exact_key_, bounds_key_;
  struct Bounded {
    bool known = false;
    PlanBounds bounds;
  };
  static constexpr int64_t kMaxBounds = int64_t{1} << 18;
  std::vector<Bounded> bounds_;  // per key of every knob but the overlap switches
  Slots loose_slots_, exact_slots_;
  std::vector<PlanBoundTerms> loose_, exact_;
  std::unordered_map<int64_t, size_t> groups_;  // placement digit -> index into loose_
  // Per exact entry: (vpp, the evaluator's memo) for the plans costed with it.
  std::vector<std::vector<std::pair<int64_t, std::unique_ptr<CostMemo>>>> memos_;
  size_t exact_at_ = 0;
  std::vector<std::unique_ptr<CostMemo>> spare_;  // memos of earlier shapes, to refill
};

// A worker's cache of rule verdicts within one shape, keyed by the digits of the knobs the
// evaluator's rules read (PlanEvaluator::RulesRead): a plan that differs from a checked one only
// in knobs the rules never read gets the same verdict. Only speed depends on it, never a result
// (tests/search/rule_cache_test.cpp).
class RuleCache {
 public:
  explicit RuleCache(const PlanEvaluator& evaluator) {
    for (int k = 0; k < kSpaceKnobs; ++k) read_[k] = evaluator.RulesRead(static_cast<SpaceKnob>(k));
  }

  // The rule key (skip_tally.h) of the first rule the plan breaks; null when it breaks none.
  const std::string* FirstBroken(const PlanEvaluator& evaluator, const PlanSpace& space,
                                 const PlanCursor& cursor) {
    if (cursor.shape_index() != shape_) Reset(space, cursor.shape_index());
    if (slots_.empty()) return Check(evaluator, cursor.plan(), uncached_);
    int32_t& slot = slots_[static_cast<size_t>(key_.Of(cursor))];
    if (slot == kUnknown) {
      const std::string* broken = Check(evaluator, cursor.plan(), uncached_);
      if (broken == nullptr) {
        slot = kValid;
      } else {
        slot = static_cast<int32_t>(keys_.size());
        keys_.push_back(*broken);
      }
    }
    return slot == kValid ? nullptr : &keys_[static_cast<size_t>(slot)];
  }

 private:
  static constexpr int32_t kUnknown = -2, kValid = -1;
  static constexpr int64_t kMaxSlots = int64_t{1} << 20;  // beyond that, no caching

  static const std::string* Check(const PlanEvaluator& evaluator, const ParallelPlan& plan,
                                  std::string& out) {
    const std::vector<std::string> broken = evaluator.Violations(plan, true);
    if (broken.empty()) return nullptr;
    out = RuleKey(broken.front());
    return &out;
  }

  void Reset(const PlanSpace& space, size_t shape) {
    shape_ = shape;
    keys_.clear();
    const int64_t n = key_.Reset(space.shapes()[shape],
                                 [this](SpaceKnob k) { return read_[static_cast<int>(k)]; });
    if (n > kMaxSlots) {
      slots_.clear();
      return;
    }
    slots_.assign(static_cast<size_t>(n), kUnknown);
  }

  std::array<bool, kSpaceKnobs> read_{};
  KnobKey key_;
  size_t shape_ = std::numeric_limits<size_t>::max();
  std::vector<int32_t> slots_;     // per key: kUnknown, kValid or an index into keys_
  std::vector<std::string> keys_;  // rule keys of the broken verdicts
  std::string uncached_;
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
    b = ctx.evaluator.Bounds(plan, *terms);
  } catch (const InputError&) {
    b = PlanBounds{};
    terms = nullptr;
    return false;  // evaluated in full, where the error is counted
  }
  if (b.memory_bytes > ctx.capacity_bytes) {  // cannot happen (same memory bound); kept sound
    ++state.pruned;
    ++state.pruned_memory;
    return true;
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

// The plans to simulate: the best max(N, K) (`*best` of them), then front points not among
// them (at most kMaxSimulatedFront, spread evenly along the front), in a fixed order.
std::vector<int64_t> SimulationList(const WorkerState& merged, const SearchOptions& options,
                                    size_t* best) {
  const int64_t simulate = std::max<int64_t>({options.simulate_top, options.top_k, 1});
  std::vector<int64_t> list;
  for (const Candidate& c : merged.best.Sorted()) {
    if (static_cast<int64_t>(list.size()) < simulate) list.push_back(c.index);
  }
  *best = list.size();
  const auto& front = merged.front.points();
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

struct Ranked {
  double score;
  double step_s;
  int64_t index;
  size_t slot;
};

// Ranks by the objective (ties: step time, then the plan's index), folds plans equivalent to a
// better-ranked one (plan_folding.h) and keeps the top K; the front is folded the same way and
// thinned to pareto_k points spread along it.
void RankSimulated(const std::vector<StepResult>& sims, const std::vector<int64_t>& indices,
                   const std::vector<uint8_t>& simulated, const ScanContext& ctx,
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
  const auto limit = static_cast<size_t>(std::max<int64_t>(ctx.options.pareto_k, 0));
  for (size_t at : SpreadEvenly(folded_front.size(), limit)) {
    result.pareto.push_back(folded_front[at]);
    if (!simulated[front_slots[at]]) ++result.front_estimated;
  }
}

}  // namespace

double ScheduleTasks(const ParallelPlan& plan) {
  return 2.0 * static_cast<double>(plan.pp) * static_cast<double>(std::max<int64_t>(plan.vpp, 1)) *
         static_cast<double>(std::max<int64_t>(plan.MicroBatches(), 1));
}

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
    std::vector<int64_t> list = SimulationList(merged, options, &best);
    std::vector<uint8_t> simulated;
    const SkipTally before_simulation = merged.skipped;
    const std::vector<StepResult> sims =
        SimulateAll(space, evaluator, list, best, threads, merged.skipped, simulated);
    RankSimulated(sims, list, simulated, ctx, result);
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
