// The plan search limited to what one framework can run (`plan --framework`): the constraints are
// narrowed to the framework's values (RestrictToFramework) and every candidate that breaks one of
// its rules (FrameworkViolations) is rejected as a rule violation, skipped and counted like any
// other, so the ranking holds only plans the framework's launch can reproduce.
#pragma once

#include <cstdint>

#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/framework_caps.h"
#include "plan/plan_constraints.h"
#include "search/plan_evaluator.h"
#include "search/search.h"

namespace paraplan {

// A PlanEvaluator that adds a framework's rules to another evaluator's (which it does not own).
class FrameworkEvaluator : public PlanEvaluator {
 public:
  FrameworkEvaluator(const PlanEvaluator& inner, Framework framework, const ModelSpec& model)
      : inner_(&inner), framework_(framework), model_(&model) {}

  double MemoryCapacityBytes() const override { return inner_->MemoryCapacityBytes(); }
  std::vector<std::string> Violations(const ParallelPlan& plan, bool first_only) const override;
  double PeakMemoryBytes(const ParallelPlan& plan) const override {
    return inner_->PeakMemoryBytes(plan);
  }
  double EstimateStepSeconds(const ParallelPlan& plan) const override {
    return inner_->EstimateStepSeconds(plan);
  }
  StepResult Estimate(const ParallelPlan& plan) const override { return inner_->Estimate(plan); }
  StepResult Simulate(const ParallelPlan& plan) const override { return inner_->Simulate(plan); }

 private:
  const PlanEvaluator* inner_;
  Framework framework_;
  const ModelSpec* model_;
};

// SearchPlans inside `framework` (kAny: exactly SearchPlans).
SearchResult SearchPlansFor(Framework framework, const ModelSpec& model, const Cluster& cluster,
                            int64_t gpus, const PlanConstraints& constraints,
                            const SearchOptions& options);

}  // namespace paraplan
