// For `explain` on a plan that does not fit: the nearest plan that does. Nearest = the fewest
// knobs changed among the ones a user sets (tp pp dp cp ep etp vpp micro_batch recompute
// sequence_parallel zero schedule overlap_tp_comm overlap_ep_comm); among plans at that
// distance, the fastest by the analytical estimate, then the lowest index. The global batch,
// sequence length, precision and every other knob stay as the plan has them (its layer split
// too, unless no plan that keeps it fits: NearestFitConstraints). The space is
// walked once; rules and memory are only evaluated for plans no farther than the best so far.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "cost/step_result.h"
#include "search/plan_evaluator.h"
#include "search/plan_space.h"

namespace paraplan {

struct NearestFit {
  ParallelPlan plan;
  int distance = 0;                  // knobs changed
  std::vector<std::string> changes;  // "recompute: none -> full", in knob order
  int64_t searched = 0;              // plans walked
};

// The knob changes from `from` to `to` ("zero: 0 -> 1"), in the order of the header comment.
std::vector<std::string> KnobChanges(const ParallelPlan& from, const ParallelPlan& to);

// nullopt when no plan in `space` obeys the rules and fits.
std::optional<NearestFit> FindNearestFit(const PlanSpace& space, const PlanEvaluator& evaluator,
                                         const ParallelPlan& from);

// The space FindNearestFit walks for `from`: every knob free but global_batch, seq_len and
// precision, which stay fixed. The framework's kernels and memory recipe stay as `from` has them,
// and so does a layer split it fixes (pp_layers, torchtitan split points, a Megatron-LM layout's
// MTP stage, which pin pp x vpp) unless keep_split is false: then the balancer splits the layers,
// and KnobChanges lists that as one change ("layer split").
PlanConstraints NearestFitConstraints(const ParallelPlan& from, bool keep_split = true);

// Whether `from` fixes its layer split (what keep_split keeps).
bool FixesLayerSplit(const ParallelPlan& from);

}  // namespace paraplan
