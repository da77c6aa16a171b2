// The search's cost-cache levels within one shape: bound terms at two levels, the bounds of
// plans that differ only in the overlap switches, and the evaluator's memo per (terms, vpp).
// Used by search_core.cpp; only speed depends on it, never a result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

#include "search/knob_key.h"
#include "search/plan_bounds.h"
#include "search/plan_evaluator.h"
#include "search/plan_space.h"

namespace paraplan {

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
    const int64_t key = ExactKey(cursor);
    int32_t& slot = exact_slots_.At(key);
    if (slot < 0) {
      // The any-overlap terms of this plan's class were costed for a plan with the same exact
      // key (the same overlap switches and DualPipe bit): their layers are this plan's.
      const int32_t loose = loose_slots_.At(loose_key_.Of(cursor));
      if (loose >= 0 && loose_origin_[static_cast<size_t>(loose)] == key) {
        exact_.push_back(
            evaluator.BoundTermsLike(cursor.plan(), loose_[static_cast<size_t>(loose)]));
        slot = static_cast<int32_t>(exact_.size() - 1);
      }
    }
    const PlanBoundTerms& terms = Find(evaluator, cursor, exact_slots_, exact_, key, false);
    exact_at_ = static_cast<size_t>(exact_slots_.At(key));
    return terms;
  }

  // The key of the exact terms' entries: the layer-cost knobs' digits and the DualPipe bit.
  int64_t ExactKey(const PlanCursor& cursor) const {
    return 2 * exact_key_.Of(cursor) + (cursor.plan().schedule == Schedule::kDualPipe ? 1 : 0);
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
    loose_origin_.clear();
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
    if (any_overlap) loose_origin_.push_back(ExactKey(cursor));
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
  std::vector<int64_t> loose_origin_;  // per loose_ entry: ExactKey of the plan it was costed for
  std::unordered_map<int64_t, size_t> groups_;  // placement digit -> index into loose_
  // Per exact entry: (vpp, the evaluator's memo) for the plans costed with it.
  std::vector<std::vector<std::pair<int64_t, std::unique_ptr<CostMemo>>>> memos_;
  size_t exact_at_ = 0;
  std::vector<std::unique_ptr<CostMemo>> spare_;  // memos of earlier shapes, to refill
};

}  // namespace paraplan
