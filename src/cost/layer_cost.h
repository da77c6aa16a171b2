// Time and activation memory of one transformer layer for one micro-batch on one GPU, under a
// plan: the GEMMs of the projections and MLP/experts (roofline, compute_cost.h), FlashAttention's
// core, memory-bound norms and activations, and the TP / CP / EP communication the layer adds on
// the tiers its groups span (collective_cost.h).
#pragma once

#include <array>
#include <vector>

#include "cost/cost_graph.h"
#include "cost/plan_shape.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"

namespace paraplan {

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
  // same NICs has to share them with (stage_times.cpp, ZeRO-3).
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
