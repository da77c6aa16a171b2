// A lower bound on a plan's peak memory per GPU (StepModel::PeakMemoryBytes) from its knobs and
// the per-layer terms (plan_bounds.h), before the stages are laid out: the search prunes with it
// (search_core.cpp; docs/search.md "Pruning"). Every stage holds the same per-GPU overheads
// (reserve, the recompute working set, the SP gather buffers, ZeRO-3's per-layer buffers); its
// states (weights, kept gradients, optimizer state, EMA, ZeRO-3's kept-gathered copies) and DP
// bucket copies are at least linear in its parameters; the embedding, the output layer, the
// logits and the MTP modules sit on known stages. The peak is then at least
//   - the mean over the stages (DualPipe: over the ranks, each two stages),
//   - outside DualPipe, the mean weighted by 1 / held micro-batches (MicroBatchesHeld),
//   - the stages that hold the embedding, the output layer and the MTP modules on their own
//     (DualPipe: rank 0, which holds the first and the last stage).
#pragma once

#include <cstdint>

#include "cost/cost_graph.h"
#include "cost/plan_evaluation.h"
#include "plan/parallel_plan.h"

namespace paraplan {

struct PlanBoundTerms;  // plan_bounds.h

// What the bound reads of the layer costs and the model besides the per-layer sums, computed
// once with the terms (the same for every plan they are cached for: pp and the layout are the
// shape's and the search's).
struct MemoryBoundTerms {
  int64_t mtp_stage = -1;  // physical stage of the MTP modules, -1 = none
  double embed = 0;        // the input embedding's parameters on one GPU
  double output = 0;       // the output layer's (0 when tied and pp = 1)
  double embed_act = 0, logits = 0;
  double mtp_dense = 0, mtp_expert = 0, mtp_act = 0;
  // The MTP modules' logits workspace on the last stage (beside the main loss) and elsewhere.
  double mtp_logits_last = 0, mtp_logits_alone = 0;
  double layer_params = 0;  // the largest layer kind's parameters on one GPU (ZeRO-3 buffers)
  bool acts_known = false;  // no negative stored activations among the kinds and extras
};
MemoryBoundTerms MemoryBoundTermsOf(const CostGraph& dims, const ParallelPlan& plan,
                                    const PlanLayerCosts& layers, double layer_act_bytes);

// Never above the peak of EvaluateStageMemory over the stages for any layout of the plan's
// layers (balanced or fixed), before the rounding slack the caller applies.
double MemoryLowerBound(const ParallelPlan& plan, const PlanBoundTerms& terms);

}  // namespace paraplan
