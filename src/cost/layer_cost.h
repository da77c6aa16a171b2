// Time and activation memory of one transformer layer for one micro-batch on one GPU, under a
// plan: the GEMMs of the projections and MLP/experts (roofline, compute_cost.h), FlashAttention's
// core, memory-bound norms and activations, and the TP / CP / EP communication the layer adds on
// the tiers its groups span (collective_cost.h).
#pragma once

#include <algorithm>
#include <array>
#include <vector>

#include "cost/cost_graph.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"
#include "plan/placement.h"

namespace paraplan {

// What every layer cost needs from the plan, computed once per plan.
// Communication streams of a micro-batch's pass, in the order of the busy arrays below and of
// StageComm's (cost/plan_evaluation.h, which adds ZeRO-3 as kCommZero3).
inline constexpr int kCommTp = 0, kCommCp = 1, kCommEp = 2, kCommZero3 = 3, kCommStreams = 4;

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

PlanShape MakePlanShape(const CostGraph& dims, const ParallelPlan& plan, const Cluster& cluster);
// The same with the plan's groups already placed (PlacePlan(plan, cluster)): a caller that costs
// many plans with the same sizes and placement order places them once.
PlanShape MakePlanShape(const CostGraph& dims, const ParallelPlan& plan,
                        const PlanPlacement& groups);

// One layer, one micro-batch, one GPU. Compute fields exclude communication; the *_comm fields
// are the parts of TP/CP/EP communication left exposed after overlap.
struct LayerCost {
  double fwd_s = 0;
  double bwd_s = 0;         // input-gradient + weight-gradient backward
  double bwd_weight_s = 0;  // the weight-gradient part of bwd_s
  double recompute_s = 0;   // forward work redone in backward (selective, op or full)
  double tp_comm_s = 0;     // forward + backward, exposed
  double tp_comm_fwd_s = 0;
  double cp_comm_s = 0;
  double cp_comm_fwd_s = 0;
  double ep_comm_s = 0;
  double ep_comm_fwd_s = 0;
  // Seconds this layer's TP/CP/EP collectives occupy the network tier (all of their time, hidden
  // or not, when their group crosses a tier beyond the innermost): traffic a DP group crossing the
  // same NICs has to share them with (plan_evaluation.cpp, ZeRO-3).
  double net_fwd_s = 0;
  double net_bwd_s = 0;
  // All the time the layer's TP, CP and EP collectives run, hidden or not (indices
  // kCommTp, kCommCp, kCommEp): the trace's communication streams.
  std::array<double, 3> comm_busy_fwd_s{};
  std::array<double, 3> comm_busy_bwd_s{};
  // Compute lost beside the overlapped part of each of those streams: the SMs its kernels hold
  // (cost/overlap_sm.h), per forward and backward of one micro-batch. Not in fwd_s / bwd_s.
  std::array<double, 3> sm_loss_fwd_s{};
  std::array<double, 3> sm_loss_bwd_s{};
  double SmLossFwd() const { return sm_loss_fwd_s[0] + sm_loss_fwd_s[1] + sm_loss_fwd_s[2]; }
  double SmLossBwd() const { return sm_loss_bwd_s[0] + sm_loss_bwd_s[1] + sm_loss_bwd_s[2]; }
  double act_bytes = 0;       // activations stored for backward under the recompute mode
  double act_full_bytes = 0;  // everything the layer's backward needs (full-recompute working set)
  double act_recompute_bytes = 0;  // live only while one layer is recomputed (full, op)
  double params_local = 0;         // dense parameters on this GPU (after tp)
  double expert_params_local = 0;  // expert parameters on this GPU (after ep and etp)
};

LayerCost ComputeLayerCost(const CostGraph& dims, int kind, const PlanShape& shape,
                           const Cluster& cluster);

// One op of the layer as ComputeLayerCost costs it (explain's per-op table, cost/layer_ops.h):
// forward FLOPs and HBM bytes, kernels launched, forward and backward seconds (launches
// included), and the seconds of each limit of the forward (compute, memory, launch).
struct LayerOpRow {
  const char* name = "";
  double flops = 0, bytes = 0, kernels = 0;
  double fwd_s = 0, bwd_s = 0;
  double compute_s = 0, memory_s = 0, launch_s = 0;
};

// The same with the cluster's collective links resolved beforehand (the search's inner loop).
LayerCost ComputeLayerCost(const CostGraph& dims, int kind, const PlanShape& shape,
                           const Cluster& cluster, const NetworkLinks& links,
                           std::vector<LayerOpRow>* rows = nullptr);

// Activation bytes per layer of the published GPT formula (Korthikanti et al. 2022, "Reducing
// Activation Recomputation in Large Transformer Models", Table 2), 16-bit activations with
// dropout and no FlashAttention: sbh(34 + 5as/h) without parallelism, sbh(10 + 24/t + 5as/(ht))
// with TP, sbh(34 + 5as/h)/t with SP, 34sbh/t with selective recompute + SP, 2sbh with full.
double KorthikantiActivationBytes(double s, double b, double h, double a, double t,
                                  bool sequence_parallel, Recompute recompute);

}  // namespace paraplan
