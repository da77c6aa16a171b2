// PlanEvaluator backed by the real cost model (StepModel) and the plan rules (PlanViolations).
#pragma once

#include "cost/cost_graph.h"
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
  PlanBoundTerms BoundTerms(const ParallelPlan& plan, const PlanBoundTerms* same_groups = nullptr,
                            bool any_overlap = false) const override;
  // From `like`'s layer costs when it keeps them.
  PlanBoundTerms BoundTermsLike(const ParallelPlan& plan,
                                const PlanBoundTerms& like) const override;
  PlanBounds Bounds(const ParallelPlan& plan, const PlanBoundTerms& terms) const override;
  double StepBound(const ParallelPlan& plan, const PlanBoundTerms& terms) const override;
  // One evaluation of the layers for both questions, from the terms' layer costs when given.
  PlanCost Cost(const ParallelPlan& plan, const PlanBoundTerms* terms, const StepGate& gate,
                std::unique_ptr<CostMemo>* memo = nullptr) const override;
  // The knob table's rules bit (plan/knob_table.h): PlanViolations reads neither recompute,
  // the overlap switches, the DP communication dtype, grad_reduce_in_fp32 nor ZeRO-3's
  // keep-gathered switch; it does read the MoE routing (under moe_pad_to_capacity). Checked in
  // tests/search/search_cache_test.cpp and tests/search/knob_property_test.cpp.
  bool RulesRead(SpaceKnob knob) const override;

 private:
  const StepModel* model_;
  CostGraph dims_;      // the same dimensions StepModel builds, for the bounds
  NetworkLinks links_;  // the cluster's links, resolved once
};

}  // namespace paraplan
