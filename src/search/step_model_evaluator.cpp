#include "search/step_model_evaluator.h"

#include "core/units.h"
#include "plan/plan_rules.h"

namespace paraplan {

StepModelEvaluator::StepModelEvaluator(const StepModel& model)
    : model_(&model),
      dims_(BuildModelDims(model.model())),
      links_(ResolveNetworkLinks(model.cluster())) {}

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

PlanBoundTerms StepModelEvaluator::BoundTerms(const ParallelPlan& plan) const {
  return ComputePlanBoundTerms(dims_, model_->cluster(), links_, plan);
}

PlanBounds StepModelEvaluator::Bounds(const ParallelPlan& plan, const PlanBoundTerms& terms) const {
  return ComputePlanBounds(dims_, model_->cluster(), plan, terms);
}

}  // namespace paraplan
