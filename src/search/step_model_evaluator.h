// PlanEvaluator backed by the real cost model (StepModel) and the plan rules (PlanViolations).
#pragma once

#include "evaluate/step_model.h"
#include "search/plan_evaluator.h"

namespace paraplan {

class StepModelEvaluator : public PlanEvaluator {
 public:
  explicit StepModelEvaluator(const StepModel& model) : model_(&model) {}

  double MemoryCapacityBytes() const override;
  std::vector<std::string> Violations(const ParallelPlan& plan, bool first_only) const override;
  double PeakMemoryBytes(const ParallelPlan& plan) const override;
  double EstimateStepSeconds(const ParallelPlan& plan) const override;
  StepResult Estimate(const ParallelPlan& plan) const override;
  StepResult Simulate(const ParallelPlan& plan) const override;

 private:
  const StepModel* model_;
};

}  // namespace paraplan
