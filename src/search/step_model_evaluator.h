// PlanEvaluator backed by the real cost model (StepModel) and the plan rules (PlanViolations).
#pragma once

#include "cost/model_dims.h"
#include "evaluate/step_model.h"
#include "hardware/collective_cost.h"
#include "search/plan_evaluator.h"

namespace paraplan {

class StepModelEvaluator : public PlanEvaluator {
 public:
  explicit StepModelEvaluator(const StepModel& model);

  double MemoryCapacityBytes() const override;
  std::vector<std::string> Violations(const ParallelPlan& plan, bool first_only) const override;
  double PeakMemoryBytes(const ParallelPlan& plan) const override;
  double EstimateStepSeconds(const ParallelPlan& plan) const override;
  StepResult Estimate(const ParallelPlan& plan) const override;
  StepResult Simulate(const ParallelPlan& plan) const override;
  bool HasBounds() const override { return true; }
  PlanBoundTerms BoundTerms(const ParallelPlan& plan) const override;
  PlanBounds Bounds(const ParallelPlan& plan, const PlanBoundTerms& terms) const override;

 private:
  const StepModel* model_;
  ModelDims dims_;      // the same dimensions StepModel builds, for the bounds
  NetworkLinks links_;  // the cluster's links, resolved once
};

}  // namespace paraplan
