// A mixed-radix key over some of a plan space shape's knobs (plan_space.h), which the search's
// caches (rule_cache.h, bound_cache.h) index their entries by.
#pragma once

#include <array>
#include <cstdint>

#include "search/plan_space.h"

namespace paraplan {

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

}  // namespace paraplan
