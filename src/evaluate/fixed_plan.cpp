#include "evaluate/fixed_plan.h"

#include "evaluate/step_model.h"
#include "plan/plan_resolve.h"
#include "plan/plan_rules.h"

namespace paraplan {

FixedPlanOutcome RunFixedPlan(const ModelSpec& model, const Cluster& cluster, int64_t gpus,
                              const ParallelPlan& plan, const FixedPlanRequest& request) {
  FixedPlanOutcome out;
  out.plan = plan;
  out.violations = PlanViolations(model, cluster, gpus, plan);
  if (!out.violations.empty()) return out;
  const StepModel step_model(model, cluster, gpus);
  if (request.analytic && request.timeline == nullptr) {
    out.result = step_model.Estimate(plan);
  } else {
    out.result = step_model.Simulate(plan, request.timeline);
    if (request.analytic) out.result = step_model.Estimate(plan);
  }
  if (request.stages != nullptr) *request.stages = step_model.BuildPipelineInput(plan);
  return out;
}

FixedPlanOutcome RunFixedPlan(const ModelSpec& model, const Cluster& cluster, int64_t gpus,
                              const PlanConstraints& constraints, const FixedPlanRequest& request) {
  return RunFixedPlan(model, cluster, gpus, ResolvePlan(constraints, gpus, model), request);
}

}  // namespace paraplan
