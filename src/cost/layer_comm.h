// The communication one transformer layer adds for one micro-batch on one GPU: tensor
// parallelism's all-reduces or all-gather / reduce-scatter pairs and their overlap with the
// block's GEMMs, context parallelism's K/V ring beside the attention, expert parallelism's
// dispatch and combine (with the MoE layer's small count and aux-loss collectives), each on the
// tiers its group spans (hardware/collective_cost.h), and what full recompute replays of them.
// ComputeLayerCost (layer_cost.h) composes it with the layer's compute.
#pragma once

#include "cost/cost_graph.h"
#include "cost/layer_cost.h"
#include "cost/plan_shape.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"

namespace paraplan {

// The block of a layer whose TP pair is overlapped: its GEMMs (forward seconds).
struct TpBlock {
  double gemm_s = 0, row_gemm_s = 0;
};

// Fills `out`'s TP, CP and EP communication (exposed *_comm_s and *_comm_fwd_s, comm_busy_*,
// sm_loss_*, net_*) for layer `kind`: `attn` and `mlp` are the blocks' GEMMs, attn_fwd_s and
// attn_bwd_s the core attention's seconds (CP's ring hides under them); DualPipe's EP overlap reads
// out.fwd_s and out.bwd_s, so the compute is filled in first.
void LayerCommunication(const CostGraph& d, int kind, const PlanShape& p, const NetworkLinks& links,
                        const Cluster& c, const TpBlock& attn, const TpBlock& mlp,
                        double attn_fwd_s, double attn_bwd_s, LayerCost& out);

// Full recompute re-runs each layer's forward inside its backward, collectives included: adds the
// forward's communication to the backward's.
void RecomputedCommunication(LayerCost& out);

}  // namespace paraplan
