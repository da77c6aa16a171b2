// Which knob's cost ranks wrong? The ranking figure (validate/plan_ranking.h) broken down by the
// one knob two plans of the same job differ in: every pair of a job's runs whose chosen plans
// (PlanString, validate/plan_ranking.h's RankedRun::knobs) differ in exactly one knob, besides
// dp and the global batch that follow from it (and the pipeline layout keys, pp_*, where pp
// itself differs), is a measured effect of that knob change, with the prediction beside it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "validate/plan_ranking.h"

namespace paraplan {

// The value of a knob PlanString does not write (a rarer knob at ParallelPlan's default).
inline constexpr const char* kUnwritten = "default";

// One knob change, "tp 4 -> 8": the lower value first (numbers by value, other values by name).
struct KnobChange {
  std::string knob;
  std::string from;
  std::string to;
  int64_t pairs = 0;       // pairs of runs differing in this change alone
  int64_t ordered = 0;     // of those, measured more than the tolerance apart
  int64_t concordant = 0;  // of those, ordered the same way by the prediction
  int64_t tied = 0;        // of those, predicted equal
  // Geometric mean over the pairs of (predicted to/from time ratio) / (measured to/from ratio),
  // minus 1, in percent: < 0, the change from `from` to `to` measured slower (or less fast)
  // than predicted; > 0, faster.
  double ratio_error_pct = 0;
  std::vector<std::string> sources;  // source groups of the pairs, first appearance
  // (concordant + tied / 2) / ordered; 0 when nothing is ordered.
  double Agreement() const;
};

// The knob changes of every job in `report`, by knob name, then from and to (numbers by value).
std::vector<KnobChange> RankingByKnob(const RankingReport& report);

}  // namespace paraplan
