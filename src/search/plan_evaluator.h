// The search's view of a cost model: the five questions it asks about a plan. StepModel answers
// them in production (StepModelEvaluator); tests answer them with a synthetic cost function.
// Every method is called from many threads at once and must be thread-safe.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "cost/step_result.h"
#include "plan/parallel_plan.h"
#include "search/plan_bounds.h"
#include "search/plan_space.h"

namespace paraplan {

// Decides, from a plan's exact peak memory, whether its step time is still needed (the search
// prunes plans whose memory already shows they cannot matter).
class StepGate {
 public:
  virtual bool NeedStep(double peak_memory_bytes) const = 0;

 protected:
  ~StepGate() = default;
};

// Work an evaluator keeps between Cost calls on plans that share their (exact) bound terms and
// vpp — StepModelEvaluator: the layers per stage. The search owns one per (terms, vpp) and never
// looks inside.
class CostMemo {
 public:
  virtual ~CostMemo() = default;
  // Set by the evaluator once the memo holds what it keeps; the search clears it to hand the
  // object (allocated by the same evaluator) to other plans.
  bool filled = false;
};

// What PlanEvaluator::Cost returns: the peak memory, and the step time when it was asked for.
struct PlanCost {
  double memory_bytes = 0;
  double step_s = 0;
  bool stepped = false;
};

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
  // `same_groups`, when not null, holds the terms of a plan with the same tp, cp, dp, pp, ep, etp
  // and placement (its communicator groups can be reused). `any_overlap`: terms that also bound
  // every plan differing from `plan` only in overlap_tp_comm, overlap_ep_comm and whether the
  // schedule is DualPipe (plan_bounds.h), looser; their layers are not the plan's.
  virtual PlanBoundTerms BoundTerms(const ParallelPlan& plan,
                                    const PlanBoundTerms* same_groups = nullptr,
                                    bool any_overlap = false) const {
    (void)plan;
    (void)same_groups;
    (void)any_overlap;
    return {};
  }
  // BoundTerms(plan) from `like`, the terms (exact or any-overlap) of a plan with the same layers:
  // the same digits of every knob MakePlanShape reads and the same "is it DualPipe". The same
  // terms, without costing the layers again where the evaluator keeps them (default: BoundTerms
  // with `like`'s groups).
  virtual PlanBoundTerms BoundTermsLike(const ParallelPlan& plan,
                                        const PlanBoundTerms& like) const {
    return BoundTerms(plan, &like, false);
  }
  virtual PlanBounds Bounds(const ParallelPlan& plan, const PlanBoundTerms& terms) const {
    (void)plan;
    (void)terms;
    return {};
  }
  // Bounds(plan, terms).step_s alone, for a plan whose memory bound is known already (the search
  // has it from the any-overlap terms, whose memory bound is the exact terms'): the same number.
  virtual double StepBound(const ParallelPlan& plan, const PlanBoundTerms& terms) const {
    return Bounds(plan, terms).step_s;
  }

  // PeakMemoryBytes, then EstimateStepSeconds when gate.NeedStep(memory) — the same numbers, bit
  // for bit; an evaluator may share work between the two. `terms`, when not null, are BoundTerms
  // of this plan (or of one the search caches them for). `memo`, when not null, is the memo of
  // every plan with these terms and this vpp (null or not filled at first; the evaluator may
  // allocate and fill it). Only
  // asked about valid plans; may throw InputError.
  virtual PlanCost Cost(const ParallelPlan& plan, const PlanBoundTerms* terms, const StepGate& gate,
                        std::unique_ptr<CostMemo>* memo = nullptr) const {
    (void)terms;
    (void)memo;
    PlanCost c;
    c.memory_bytes = PeakMemoryBytes(plan);
    if (gate.NeedStep(c.memory_bytes)) {
      c.step_s = EstimateStepSeconds(plan);
      c.stepped = true;
    }
    return c;
  }

  // Whether Violations reads knob `knob` of the space (plan_space.h), i.e. may answer differently
  // for two plans of one shape that differ only in it. The search reuses a verdict across the
  // knobs it does not read. Default: every knob.
  virtual bool RulesRead(SpaceKnob knob) const {
    (void)knob;
    return true;
  }
};

}  // namespace paraplan
