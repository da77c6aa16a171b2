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
// gradient (vocab-parallel cross-entropy). A fused loss (cross_entropy_fusion) keeps the bf16
// logits only: TransformerEngine's parallel_cross_entropy computes in fp32 inside its kernel,
// saves the input and per-row statistics, and writes the gradient into the input
// (transformer_engine/pytorch/cross_entropy.py, CrossEntropyFunction).
inline double LogitsBytes(const CostGraph& d, const PlanShape& s) {
  const double per_logit = s.recipe.cross_entropy_fusion ? 2.0 : 2.0 + 4.0 * 2.0;
  return s.tokens * (d.vocab / s.tp) * per_logit;
}

// The first stage's embedding output, one micro-batch (bf16).
inline double EmbedActBytes(const CostGraph& d, const PlanShape& s) {
  return kAct * s.norm_tokens * d.hidden;
}

// What the MTP modules store for backward, one micro-batch: each its layer's activations and its
// concatenated 2h input (`mtp_layer` is the cost of one layer of the MTP kind).
inline double MtpActBytes(const CostGraph& d, const PlanShape& s, const LayerCost& mtp_layer) {
  return static_cast<double>(d.mtp_layers) *
         (mtp_layer.act_bytes + 2 * kAct * s.norm_tokens * d.hidden);
}

// The fp32 softmax one MTP module's loss keeps for backward, one micro-batch.
inline double MtpSavedLogitsBytes(const CostGraph& d, const PlanShape& s) {
  return s.tokens * (d.vocab / s.tp) * 4.0;
}

// What the MTP modules' losses add to their stage's logits workspace, one micro-batch: each
// module's saved softmax; on a stage without the main loss (`with_main_loss` false) the first
// module's loss also brings the workspace the main head's would have held (LogitsBytes, less the
// softmax already counted).
inline double MtpLogitsBytes(const CostGraph& d, const PlanShape& s, bool with_main_loss) {
  const double saved = MtpSavedLogitsBytes(d, s);
  return static_cast<double>(d.mtp_layers) * saved +
         (with_main_loss ? 0.0 : LogitsBytes(d, s) - saved);
}

// ZeRO-3 with zero3_keep_gathered and data parallelism: the weights stay gathered and the
// gradients accumulate unsharded between micro-batches.
inline bool Zero3KeepsGathered(const ParallelPlan& p) {
  return p.zero >= 3 && p.zero3_keep_gathered && p.dp * p.cp > 1;
}

// ZeRO-3 kept after the forward (Zero3KeepsAfterForward, dp_comm.h) with data parallelism: each
// unit's gathered weights stay on the GPU from its forward to its backward, so the stage holds
// its whole unsharded bf16 weights at the peak (ComputeStageMemory, MemoryBound).
bool Zero3HoldsWeightsAfterForward(const ParallelPlan& p);

// ZeRO-3's per-layer buffers every stage holds (`layer_params`: the largest layer's parameters on
// one GPU): with zero3_keep_gathered one layer's reduce-scatter input, else two gathered layers
// and one gradient in the reduce dtype; 0 without ZeRO-3 or data parallelism.
double Zero3LayerBufferBytes(const ParallelPlan& plan, double layer_params);

// The DP gradient bucket copies a stage holds under ZeRO 0-2 (`stage_params`: the stage's dense
// plus expert parameters on one GPU): two buckets in flight, at most what they replace; 0 where
// the buckets are views of the gradient buffer, under ZeRO-3 or without data parallelism.
// Concave in stage_params (a constant's minimum with a linear function).
double DpBucketCopyBytes(const ParallelPlan& plan, double stage_params);

}  // namespace paraplan
