// What one GPU of a pipeline stage holds: weights, gradients and optimizer state of the stage's
// parameters, stored activations under the schedule, logits, communication buffers (the
// StageMemoryInput memory_model.h turns into bytes); DualPipe ranks hold two stages. The byte
// formulas the search's memory bound (search/plan_bounds.cpp) shares are named here, so the
// bound and the evaluation cannot drift apart.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "cost/memory_model.h"
#include "cost/plan_evaluation.h"

namespace paraplan {

// Memory of stage `stage` of an evaluated plan.
StageMemory EvaluateStageMemory(const CostGraph& dims, const ParallelPlan& plan,
                                const PlanEvaluation& eval, int64_t stage);

// The largest EvaluateStageMemory(...).TotalBytes() over the stages, without costing the stages
// that cannot be the largest: the candidates of PeakMemoryCandidates below.
double EvaluatePeakMemory(const CostGraph& dims, const ParallelPlan& plan,
                          const PlanEvaluation& eval);

// The stages (DualPipe: ranks) whose memory can be the peak, the same for every plan whose
// evaluation has the same layers (EvaluatePlanLayers) and pp, DualPipe or not: what a stage holds
// besides its activations depends on its layer counts and on whether it holds the embedding, the
// output layer or the MTP modules, and its held micro-batches never grow with the stage index
// (MicroBatchesHeld), so of the stages with equal such keys only the first can be the largest;
// a DualPipe rank's memory is a function of its two stages' keys. The search keeps them with the
// layers it reuses (search/step_model_evaluator.cpp).
struct PeakMemoryStages {
  static constexpr int kMax = 16;
  std::array<int32_t, kMax> stages{};
  int count = -1;  // -1: more candidates than kMax; every stage is looked at
};
PeakMemoryStages PeakMemoryCandidates(const ParallelPlan& plan, const PlanEvaluation& eval);
// EvaluatePeakMemory from the candidates PeakMemoryCandidates gave for an evaluation with the
// same layers: the same number, bit for bit (falls back to every stage where a stage's stored
// activations are negative, which breaks the ordering above).
double EvaluatePeakMemory(const CostGraph& dims, const ParallelPlan& plan,
                          const PlanEvaluation& eval, const PeakMemoryStages& stages);

// GPUs the dense parameters' ZeRO shards spread over: dp x cp.
inline double DenseShards(const ParallelPlan& p) {
  return static_cast<double>(p.dp * p.cp);
}

// GPUs the expert parameters' ZeRO shards spread over: the expert-data-parallel group,
// tp x cp x dp / (ep x etp), at least 1.
inline double ExpertShards(const ParallelPlan& p) {
  return static_cast<double>(
      std::max<int64_t>(p.tp * p.cp * p.dp / std::max<int64_t>(p.ep * p.etp, 1), 1));
}

// Optimizer state per parameter kept on the GPU (the offloaded share on the host).
inline double GpuOptimizerStateBytes(const ParallelPlan& p) {
  return OptimizerStateBytes(p.recipe.optimizer_moments) * (1 - p.recipe.optimizer_offload);
}

// The SP / TP gather outputs every stage buffers (tp > 1): two bf16 activations of the
// micro-batch's tokens.
inline double TpGatherBufferBytes(const CostGraph& d, const PlanShape& s) {
  return s.tp > 1 ? 2 * kAct * s.tokens * d.hidden : 0;
}

// The last stage's logits for one micro-batch: bf16 logits, fp32 logits for the loss and their
// gradient (vocab-parallel cross-entropy).
inline double LogitsBytes(const CostGraph& d, const PlanShape& s) {
  return s.tokens * (d.vocab / s.tp) * (2.0 + 4.0 * 2.0);
}

}  // namespace paraplan
