// What a conversion's error bound allows above what its rows measure today, in percentage points:
// room for changes elsewhere in the model (tests/validate/runs_*_test.cpp).
#pragma once

namespace paraplan::test {

inline constexpr double kMarginPct = 0.5;

}  // namespace paraplan::test
