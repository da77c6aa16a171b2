// The cost model's shared vocabulary: what every layer cost needs from the plan (PlanShape, made
// once per plan) and the communication streams a micro-batch's pass runs (kComm*). Every cost
// file reads it; the layer composer (layer_cost.h) and the plan evaluation (plan_evaluation.h)
// build on it.
#pragma once

#include <algorithm>

#include "cost/cost_graph.h"
#include "hardware/cluster.h"
#include "plan/parallel_plan.h"
#include "plan/placement.h"

namespace paraplan {

// Communication streams of a micro-batch's pass, in the order of LayerCost's busy arrays and of
// StageComm's (cost/plan_evaluation.h, which adds ZeRO-3 as kCommZero3).
inline constexpr int kCommTp = 0, kCommCp = 1, kCommEp = 2, kCommZero3 = 3, kCommStreams = 4;

// Bytes of one 16-bit (bf16) activation element: activations, their gradients and the gathered
// weights every cost file counts.
inline constexpr double kAct = 2.0;

// What every layer cost needs from the plan, computed once per plan.
struct PlanShape {
  double tokens = 0;       // b * s / cp: tokens of one micro-batch in one TP group
  double norm_tokens = 0;  // tokens/tp with sequence parallelism (tp > 1), else tokens
  double seq = 0;          // full sequence length
  double tp = 1, cp = 1, ep = 1, etp = 1;
  double moe_load = 1;        // busiest expert rank's load over the mean (imbalance, capped)
  bool moe_dropping = false;  // moe_routing=drop: the router masks tokens beyond capacity
  bool sequence_parallel = false;
  Recompute recompute = Recompute::kNone;
  Precision precision = Precision::kBf16;
  bool overlap_tp = false, overlap_ep = false, dualpipe = false;
  // The GPU's FP8 GEMMs take any operand layout (Fp8AnyLayout): TransformerEngine keeps no
  // transposed FP8 copies (cost/elementwise_cost.h, TeFp8RecipeBytes).
  bool fp8_any_layout = false;
  MemoryRecipe recipe;   // recompute modules, FP8 activation caching (cost/activation_terms.h)
  KernelRecipe kernels;  // fusion profile and CUDA graphs (cost/elementwise_cost.h)
  PlanPlacement groups;
};

// Routed token copies that reach this rank's experts in one MoE layer: the TP group's local
// tokens, top_k copies each, the busiest rank's load, gathered over the expert-TP group.
inline double RoutedTokens(const CostGraph& d, const PlanShape& p) {
  return p.tokens / p.tp * d.top_k * p.moe_load * p.etp;
}

// K/V heads the K and V projections produce on one TP rank (GQA): a rank holds at least one,
// replicated when tp > kv_heads.
inline double ProjectedKvHeads(const CostGraph& d, const PlanShape& p) {
  return std::max(d.kv_heads / p.tp, 1.0);
}

// K/V heads the attention kernel reads on one TP rank: the projected ones (MLA: one per query
// head, after the up-projection), or the query heads when the model code repeats K/V before the
// kernel (repeat_kv, plan/kernel_recipe.h).
inline double AttentionKvHeads(const CostGraph& d, const PlanShape& p) {
  if (d.mla || p.kernels.repeat_kv) return d.heads / p.tp;
  return ProjectedKvHeads(d, p);
}

// The tokens one query's attention spans, as the kernel sees them: the sequence, or with packed
// documents (packed_doc_tokens, plan/kernel_recipe.h) their length-weighted mean E[L²]/E[L],
// capped at the sequence. Variable-length attention runs each document as a sequence of its own,
// so the core's FLOPs (causal: half the span per query), its kernel's length-dependent rate and
// an unfused kernel's score matrices all take this length; the GEMMs, norms and the loss still
// see every token of the micro-batch.
inline double AttentionSpan(const PlanShape& p) {
  const double packed = p.kernels.packed_doc_tokens;
  return packed > 0 ? std::min(packed, p.seq) : p.seq;
}

// Whether `gpu`'s FP8 tensor-core GEMMs take operands in any layout. Hopper's take only TN (A
// row-major, B column-major: cuBLASLt's cublasLtMatmul FP8 layout requirement on compute
// capability 9.0), so TransformerEngine writes an FP8 transpose beside every cast; Blackwell
// (10.x) takes NN/NT/TN, and TransformerEngine >= 2.0 writes none (2.0's extensions/quantizer.cpp
// and 2.7's csrc/quantizer.cpp: with_transpose = columnwise_usage &&
// !nvte_is_non_tn_fp8_gemm_supported(); utils.py: capability 10.0-11.x or >= 13.0).
bool Fp8AnyLayout(const GpuSpec& gpu);

PlanShape MakePlanShape(const CostGraph& dims, const ParallelPlan& plan, const Cluster& cluster);
// The same with the plan's groups already placed (PlacePlan(plan, cluster)): a caller that costs
// many plans with the same sizes and placement order places them once.
PlanShape MakePlanShape(const CostGraph& dims, const ParallelPlan& plan,
                        const PlanPlacement& groups, const GpuSpec& gpu);

}  // namespace paraplan
