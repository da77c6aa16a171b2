#include "search/step_model_evaluator.h"

#include "core/units.h"
#include "plan/plan_rules.h"

namespace paraplan {

double StepModelEvaluator::MemoryCapacityBytes() const {
  return GiBToBytes(model_->cluster().gpu.memory_GiB);
}

std::vector<std::string> StepModelEvaluator::Violations(const ParallelPlan& plan,
                                                        bool first_only) const {
  return PlanViolations(model_->model(), model_->cluster(), model_->gpus(), plan, first_only);
}

double StepModelEvaluator::PeakMemoryBytes(const ParallelPlan& plan) const {
  return model_->PeakMemoryBytes(plan);
}

double StepModelEvaluator::EstimateStepSeconds(const ParallelPlan& plan) const {
  return model_->EstimateStepSeconds(plan);
}

StepResult StepModelEvaluator::Estimate(const ParallelPlan& plan) const {
  return model_->Estimate(plan);
}

StepResult StepModelEvaluator::Simulate(const ParallelPlan& plan) const {
  return model_->Simulate(plan);
}

}  // namespace paraplan
