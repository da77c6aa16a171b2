#include "search/step_model_evaluator.h"

#include <stdexcept>
#include <string>

#include "core/error.h"
#include "core/units.h"
#include "cost/plan_evaluation.h"
#include "cost/stage_key.h"
#include "cost/stage_memory.h"
#include "plan/plan_rules.h"
#include "search/space_knobs.h"

namespace paraplan {

StepModelEvaluator::StepModelEvaluator(const StepModel& model)
    : model_(&model),
      dims_(BuildCostGraph(model.model())),
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

// The search stays total: a plan the simulator cannot run (its own consistency checks) is
// skipped and counted like any refused plan, with the simulator's reason, never an abort.
StepResult StepModelEvaluator::Simulate(const ParallelPlan& plan) const {
  try {
    return model_->Simulate(plan);
  } catch (const std::logic_error& e) {
    throw InputError(std::string("the simulator refused the plan: ") + e.what());
  }
}

PlanBoundTerms StepModelEvaluator::BoundTerms(const ParallelPlan& plan,
                                              const PlanBoundTerms* same_groups,
                                              bool any_overlap) const {
  const Cluster& c = model_->cluster();
  if (same_groups != nullptr && same_groups->has_layers) {
    return ComputePlanBoundTerms(
        dims_, plan,
        ComputePlanLayerCosts(dims_, c, links_, plan, same_groups->layers.shape.groups),
        any_overlap);
  }
  return ComputePlanBoundTerms(dims_, plan, ComputePlanLayerCosts(dims_, c, links_, plan),
                               any_overlap);
}

PlanBoundTerms StepModelEvaluator::BoundTermsLike(const ParallelPlan& plan,
                                                  const PlanBoundTerms& like) const {
  if (!like.has_layers) return BoundTerms(plan, &like, false);
  return ComputePlanBoundTerms(dims_, plan, like.layers, false);
}

namespace {

// The layers of an evaluation (EvaluatePlanLayers): they depend on the exact bound terms' knobs
// and vpp only, and neither EvaluatePeakMemory nor EvaluatePlanTimeAfterLayers changes them
// (the latter only writes the stage times and what follows from them).
struct LayersMemo : CostMemo {
  PlanEvaluation eval;
  PeakMemoryStages peak_stages;  // the stages whose memory can be the peak (the same layers)
  // The stages' distinct keys (the same layers), found for the first plan that is stepped.
  bool classes_ready = false;
  StageClasses classes;
};

}  // namespace

PlanCost StepModelEvaluator::Cost(const ParallelPlan& plan, const PlanBoundTerms* terms,
                                  const StepGate& gate, std::unique_ptr<CostMemo>* memo) const {
  const Cluster& c = model_->cluster();
  const bool cached = terms != nullptr && terms->has_layers && !terms->any_overlap;
  PlanEvaluation local;
  PlanEvaluation* e = &local;
  const PeakMemoryStages* peak_stages = nullptr;
  LayersMemo* layers_memo = nullptr;
  if (cached && memo != nullptr && *memo != nullptr && (*memo)->filled) {
    e = &static_cast<LayersMemo*>(memo->get())->eval;
    peak_stages = &static_cast<LayersMemo*>(memo->get())->peak_stages;
    layers_memo = static_cast<LayersMemo*>(memo->get());
  } else if (cached && memo != nullptr) {
    // Default-initialised (no zeroing of the stage arrays); a recycled memo is refilled whole.
    if (*memo == nullptr) *memo = std::unique_ptr<LayersMemo>(new LayersMemo);
    auto* m = static_cast<LayersMemo*>(memo->get());
    m->eval.p2p_s = 0;  // the only field EvaluatePlanLayers sets conditionally (pp > 1)
    EvaluatePlanLayers(dims_, c, links_, plan, terms->layers, &m->eval);
    m->peak_stages = PeakMemoryCandidates(plan, m->eval);
    m->classes_ready = false;
    m->filled = true;  // only once filled: a plan that throws leaves it unfilled
    e = &m->eval;
    peak_stages = &m->peak_stages;
    layers_memo = m;
  } else if (cached) {
    EvaluatePlanLayers(dims_, c, links_, plan, terms->layers, e);
  } else {
    EvaluatePlanLayers(dims_, c, links_, plan, e);
  }
  PlanCost out;
  out.memory_bytes = peak_stages != nullptr ? EvaluatePeakMemory(dims_, plan, *e, *peak_stages)
                                            : EvaluatePeakMemory(dims_, plan, *e);
  if (!gate.NeedStep(out.memory_bytes)) return out;
  const StageClasses* classes = nullptr;
  if (layers_memo != nullptr) {
    if (!layers_memo->classes_ready) {
      StageClassesOf(plan, layers_memo->eval, &layers_memo->classes);
      layers_memo->classes_ready = true;
    }
    classes = &layers_memo->classes;
  }
  EvaluatePlanTimeAfterLayers(dims_, c, links_, plan, e, classes);
  out.step_s = e->step_s;
  out.stepped = true;
  return out;
}

// The knob table's rules bit (plan/knob_table.cpp): a space knob whose plan knobs PlanViolations
// never reads may share a verdict.
bool StepModelEvaluator::RulesRead(SpaceKnob knob) const {
  return SpaceKnobReadBy(knob, kReadByRules);
}

PlanBounds StepModelEvaluator::Bounds(const ParallelPlan& plan, const PlanBoundTerms& terms) const {
  return ComputePlanBounds(dims_, model_->cluster(), plan, terms);
}

double StepModelEvaluator::StepBound(const ParallelPlan& plan, const PlanBoundTerms& terms) const {
  return ComputeStepBound(model_->cluster(), plan, terms);
}

}  // namespace paraplan
