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

#include "cost/cost_graph.h"
#include "plan/parallel_plan.h"
#include "search/plan_bounds.h"

namespace paraplan {

// Never above the peak of EvaluateStageMemory over the stages for any layout of the plan's
// layers (balanced or fixed), before the rounding slack the caller applies.
double MemoryLowerBound(const CostGraph& dims, const ParallelPlan& plan,
                        const PlanBoundTerms& terms);

}  // namespace paraplan
