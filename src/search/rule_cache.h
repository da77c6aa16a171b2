// The search's cache of rule verdicts within one shape (search_core.cpp), keyed by the knobs the
// rules read (PlanEvaluator::RulesRead, from the knob table: plan/knob_table.h).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "search/knob_key.h"
#include "search/plan_evaluator.h"
#include "search/plan_space.h"
#include "search/skip_tally.h"

namespace paraplan {

// A worker's cache of rule verdicts within one shape, keyed by the digits of the knobs the
// evaluator's rules read (PlanEvaluator::RulesRead): a plan that differs from a checked one only
// in knobs the rules never read gets the same verdict. Only speed depends on it, never a result
// (tests/search/search_cache_test.cpp, knob_property_test.cpp).
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

}  // namespace paraplan
