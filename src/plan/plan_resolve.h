// Turning what the user fixed on the command line into the one plan `simulate` and `explain`
// run: every knob given once is taken, a knob given as a list is an error, dp is derived from the
// GPU count, the rest keep the defaults every command shares (plan_defaults.h: sequence
// parallelism on when tp > 1; otherwise ParallelPlan's).
#pragma once

#include <cstdint>

#include "model/model_spec.h"
#include "plan/parallel_plan.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// Throws InputError when a knob has several values ("simulate needs one value for tp, got 4|8"),
// when global_batch is missing, or when dp cannot be derived (gpus not divisible by tp*cp*pp).
// Does not check the plan rules (PlanViolations does).
ParallelPlan ResolvePlan(const PlanConstraints& constraints, int64_t gpus, const ModelSpec& model);

}  // namespace paraplan
