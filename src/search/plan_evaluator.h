// The search's view of a cost model: the five questions it asks about a plan. StepModel answers
// them in production (StepModelEvaluator); tests answer them with a synthetic cost function.
// Every method is called from many threads at once and must be thread-safe.
#pragma once

#include <string>
#include <vector>

#include "cost/step_result.h"
#include "plan/parallel_plan.h"
#include "search/plan_bounds.h"

namespace paraplan {

class PlanEvaluator {
 public:
  virtual ~PlanEvaluator() = default;

  // Memory each GPU has (bytes); a plan fits when its peak is at most this.
  virtual double MemoryCapacityBytes() const = 0;
  // The rules the plan breaks (PlanViolations); empty when valid. first_only: stop at one.
  virtual std::vector<std::string> Violations(const ParallelPlan& plan, bool first_only) const = 0;
  // Peak memory over the stages (bytes). Only asked about valid plans.
  virtual double PeakMemoryBytes(const ParallelPlan& plan) const = 0;
  // Analytical step time (seconds), the fast path. Only asked about valid plans.
  virtual double EstimateStepSeconds(const ParallelPlan& plan) const = 0;
  // Full analytical result with memory and time breakdowns.
  virtual StepResult Estimate(const ParallelPlan& plan) const = 0;
  // Event-driven simulation of the plan.
  virtual StepResult Simulate(const ParallelPlan& plan) const = 0;

  // Optional lower bounds for pruning (plan_bounds.h): never above PeakMemoryBytes and
  // EstimateStepSeconds. An evaluator without them (the default) is searched exhaustively.
  // BoundTerms may depend only on the knobs MakePlanShape reads (the search caches it across the
  // others: zero, schedule other than DualPipe, DP and PP knobs); Bounds combines them with the
  // rest of the plan. Only asked about valid plans; may throw InputError (the plan is then
  // evaluated in full).
  virtual bool HasBounds() const { return false; }
  virtual PlanBoundTerms BoundTerms(const ParallelPlan& plan) const {
    (void)plan;
    return {};
  }
  virtual PlanBounds Bounds(const ParallelPlan& plan, const PlanBoundTerms& terms) const {
    (void)plan;
    (void)terms;
    return {};
  }
};

}  // namespace paraplan
