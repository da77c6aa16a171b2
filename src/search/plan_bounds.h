// Lower bounds on a plan's analytical step time and peak memory, cheap enough to prune the search
// (search_core.cpp; docs/search.md "Pruning"). Both are built from public cost-model functions
// (MakePlanShape, ComputeLayerCost, MicroBatchesHeld, the memory constants) and never exceed what
// StepModel::EstimateStepSeconds / PeakMemoryBytes return for the same plan:
//   step ≥ overhead + m · Σ_k N_k · (layer k's fwd + bwd + recompute + exposed TP/CP/EP) / pp
//   peak ≥ the largest of several layout-free bounds: the mean over the stages (DualPipe: ranks),
//          the stages holding the embedding, output layer and MTP modules alone, and outside
//          DualPipe the mean weighted by 1 / held micro-batches (search/memory_bound.h)
// The expensive part, the per-layer sums (PlanBoundTerms), depends only on the knobs that
// MakePlanShape reads, so the search caches it across ZeRO levels, schedules and DP knobs.
#pragma once

#include "cost/cost_graph.h"
#include "cost/plan_evaluation.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"
#include "search/memory_bound.h"
#include "search/plan_space.h"

namespace paraplan {

// Sums over every layer of the model (layers of kind k counted N_k times), one micro-batch.
struct PlanBoundTerms {
  double work_s = 0;         // Σ N_k (fwd + bwd + recompute + tp/cp/ep comm), seconds
  double act_bytes = 0;      // Σ N_k stored activations (0 when any kind's is negative)
  double dense_params = 0;   // Σ N_k dense parameters per GPU + the input embedding
  double expert_params = 0;  // Σ N_k expert parameters per GPU
  // Held by every stage whatever its layers: one layer's recompute working set (the largest over
  // the layer kinds) and the sequence-parallel gather buffers (tp > 1), bytes.
  double act_working = 0;
  double buffer_bytes = 0;
  // The rest of what the memory bound reads (memory_bound.h).
  MemoryBoundTerms memory;
  // any_overlap: work_s leaves out the exposed TP and EP communication (non-negative), the only
  // terms that overlap_tp_comm, overlap_ep_comm and DualPipe change (layer_comm.cpp,
  // LayerCommunication), so these terms bound every plan that differs only in those three.
  bool any_overlap = false;
  // The layer costs the sums come from, reused by the plan's full evaluation (the same for every
  // plan the terms are cached for, unless any_overlap): valid when has_layers.
  bool has_layers = false;
  PlanLayerCosts layers;
};

// Whether MakePlanShape (hence PlanBoundTerms and the layer costs) reads knob `knob` of the space
// (plan_space.h). It does not read ZeRO, the DP and PP knobs, nor the schedule beyond "is it
// DualPipe" (kScheduleVpp is false here: the caller keys that bit on its own).
bool LayerCostKnob(SpaceKnob knob);
// The knobs any-overlap terms depend on: LayerCostKnob but neither overlap switch (nor DualPipe).
bool AnyOverlapKnob(SpaceKnob knob);

// Over the stages of a pipeline (not DualPipe): the sum of 1 / MicroBatchesHeld(plan, s), its
// largest value and the last stage's, in closed form (tested against the sum over the stages).
struct HeldProfile {
  double inv_sum = 0;
  double max = 0;
  double last = 0;
};
HeldProfile MicroBatchesHeldProfile(const ParallelPlan& plan);

struct PlanBounds {
  double step_s = 0;
  double memory_bytes = 0;
};

PlanBoundTerms ComputePlanBoundTerms(const CostGraph& dims, const Cluster& cluster,
                                     const NetworkLinks& links, const ParallelPlan& plan);
// The same from the plan's layer costs (ComputePlanLayerCosts), which the terms keep.
PlanBoundTerms ComputePlanBoundTerms(const CostGraph& dims, const ParallelPlan& plan,
                                     const PlanLayerCosts& layers, bool any_overlap = false);

// The bounds from the cached terms and the knobs that do not change them (zero, schedule, ...).
PlanBounds ComputePlanBounds(const CostGraph& dims, const Cluster& cluster,
                             const ParallelPlan& plan, const PlanBoundTerms& terms);
// Its step bound alone (ComputePlanBounds(...).step_s).
double ComputeStepBound(const Cluster& cluster, const ParallelPlan& plan,
                        const PlanBoundTerms& terms);

}  // namespace paraplan
