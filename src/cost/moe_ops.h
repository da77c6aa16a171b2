// The work an MoE layer does around its GEMMs (issue 17, "MoE layer costs"), as element-wise ops
// with bytes and kernels read from the framework's code (docs/framework-fusion.md, "MoE layer";
// the formulas in docs/cost-model.md, "MoE layers"):
//  - the router after its gating GEMM: score function, top-k, routing map, aux-loss pieces and
//    the dispatcher's token counts (Megatron-Core's TopKRouter, moe_utils.py), or TE's fused
//    router kernels under moe_router_fusion;
//  - the token permute before the experts and the unpermute after them (moe_utils.py permute /
//    unpermute / sort_chunks_by_idxs, or TE's fused permutation under moe_permute_fusion);
//  - the host synchronisations of a dropless (or unpadded) dispatch: each drains the launch
//    queue, so the GPU waits for a D2H copy and for the host to launch again.
// Nothing here is fitted; kernel_launch_us is the only time constant the ops use.
#pragma once

#include "cost/cost_graph.h"
#include "cost/elementwise_cost.h"
#include "cost/plan_shape.h"

namespace paraplan {

// Experts on one EP rank (E / ep).
inline double LocalExperts(const CostGraph& d, const PlanShape& p) {
  return d.experts / p.ep;
}

// Host synchronisations one MoE layer's forward makes (its backward makes none: the all-to-all
// and the grouped GEMM's backward reuse the split sizes the forward moved to the host).
double MoeHostSyncs(const PlanShape& p);

// True when a CUDA-graphed plan runs the MoE layer's dispatch and experts eagerly: a host sync
// cannot be captured, so Megatron-Core graphs only the router and the dispatch preprocessing of
// a dropless layer (TransformerConfig.cuda_graph_scope "moe_router", "moe_preprocess").
bool MoeExpertsOutsideGraph(const PlanShape& p);

// True when the permute runs on the received side of a DeepEP dispatch (Megatron-Core's flex
// dispatcher or AutoModel's port: moe_deepep with ep > 1; DualPipe plans keep the sender-side
// accounting).
inline bool DeepEpPermute(const PlanShape& p) {
  return p.kernels.moe_deepep && !p.kernels.moe_hybridep && !p.kernels.Pytorch() && !p.dualpipe &&
         p.ep > 1;
}

// True when HybridEP's dispatch writes the received tokens straight into per-expert order and its
// combine reads them back from it (`dispatch_with_permute` / `combine_with_unpermute`; NeMo
// AutoModel's _HybridEPManager.get_permuted_hidden_states_by_experts returns its input,
// nemo_automodel/components/moe/megatron/token_dispatcher.py @ 60dfabfe3): no permute pass.
inline bool HybridEpPermute(const PlanShape& p) {
  return p.kernels.moe_hybridep && !p.kernels.Pytorch() && !p.dualpipe && p.ep > 1;
}

ElementwiseOp MoeRouterOp(const CostGraph& d, const PlanShape& p);
ElementwiseOp MoePermuteOp(const CostGraph& d, const PlanShape& p);
ElementwiseOp MoeHostSyncOp(const PlanShape& p);

}  // namespace paraplan
