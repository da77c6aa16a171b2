// One set of defaults for every command. A knob the user leaves out takes ParallelPlan's default
// in `simulate`, `explain`, `study` (mode: simulate) and `validate`, and `plan` assumes the same
// value for every knob it does not search — so a plan found by `plan` re-runs identically from
// its --plan string, and re-typing a table row gives the same numbers. The defaults that depend
// on other knobs live here.
#pragma once

#include <cstdint>

namespace paraplan {

// Sequence parallelism with tp > 1 only saves memory and traffic (Korthikanti et al. 2022), so it
// is on wherever tensor parallelism is; with tp = 1 there is nothing to split.
inline bool DefaultSequenceParallel(int64_t tp) {
  return tp > 1;
}

}  // namespace paraplan
