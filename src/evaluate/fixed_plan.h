// The one runner of a fixed plan: resolve the knobs to one plan, check every rule, build the
// step model and simulate it (or estimate it in closed form). `simulate` and `explain` (cli),
// a study point in simulate mode and a validation run whose search found nothing all run here.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "cost/step_result.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/parallel_plan.h"
#include "plan/plan_constraints.h"
#include "sim/pipeline_input.h"

namespace paraplan {

struct FixedPlanRequest {
  bool analytic = false;  // return the closed-form estimate instead of the simulation
  std::vector<TimelineEvent>* timeline = nullptr;  // when set: simulated, timeline filled
  PipelineInput* stages = nullptr;                 // when set: the simulator's input for the plan
};

struct FixedPlanOutcome {
  ParallelPlan plan;
  std::vector<std::string> violations;  // the rules the plan breaks (then no result)
  std::optional<StepResult> result;
};

// Checks `plan` against every rule (PlanViolations) and, when it obeys them all, costs it.
FixedPlanOutcome RunFixedPlan(const ModelSpec& model, const Cluster& cluster, int64_t gpus,
                              const ParallelPlan& plan, const FixedPlanRequest& request = {});

// The same for the plan ResolvePlan makes of `constraints`; throws its InputError when a knob
// is not fixed or dp cannot be derived.
FixedPlanOutcome RunFixedPlan(const ModelSpec& model, const Cluster& cluster, int64_t gpus,
                              const PlanConstraints& constraints,
                              const FixedPlanRequest& request = {});

}  // namespace paraplan
