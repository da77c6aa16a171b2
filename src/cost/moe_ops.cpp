#include "cost/moe_ops.h"

#include "cost/moe_dispatch.h"

namespace paraplan {

namespace {

// Bytes per element (token x expert of the router's [tokens, experts] tensors, or per routed
// copy / token of hidden width) and kernels of one pass, forward and backward.
struct Pass {
  double fwd_bytes = 0, bwd_bytes = 0, fwd_kernels = 0, bwd_kernels = 0;
};

// Megatron-Core 0.12's unfused router, per element of the [T/tp, E] logits (softmax score, top-k
// without pre-softmax, aux-loss balancing, moe_utils.py topk_softmax_with_capacity and
// TopKRouter.aux_loss_load_balancing; bf16 logits, fp32 scores):
//  routing: topk r2; softmax + cast on [T, k]; zeros w2 + out-of-place scatter (copy r2 w2, the
//    scatter); routing map zeros w2, .int() r2 w4, scatter (copy r4 w4, scatter), .bool() r4 w1;
//    tokens_per_expert sum r1: 12 kernels, 30 B;
//  aux loss: softmax fp32 r2 w4, topk r4, the same map of 5 kernels (21 B), its sum r1, the
//    loss's probs.sum r4 and three scalar kernels, the tracker's two: 14 kernels, 36 B;
//  dispatcher preprocess (alltoall; added by MoeRouterOp): counts sum r1 + long, splits and
//    per-rank sums: 7 kernels with EP or TP, 2 without, 1 B.
// Backward: the aux loss's scalar kernels (5), its fp32 softmax backward r4 w4 and cast r4 w2,
//  the top-k path (softmax, cast, scatter's gather on [T, k]; topk backward zeros w2 + scatter),
//  the two logits gradients added r2 r2 w2: 13 kernels, 22 B.
constexpr Pass kRouterUnfused = {66, 22, 26, 13};
// TE's fused router (--moe-router-fusion; transformer_engine/pytorch/router.py):
//  fused_topk_with_score_function r2, writes probs w2, routing map w1, fp32 intermediate w4;
//  fused_compute_score_for_moe_aux_loss r2, scores w4, map w1, intermediate w4; the two counts'
//  sums r1 each; fused_moe_aux_loss r4; tracker 2: 7 kernels, 26 B (+ the dispatcher's, as above).
// Backward: topk bwd r1 r4 r2 w2; score bwd r4 r4 w2; aux-loss bwd w4; two scalar kernels; the
//  add r2 r2 w2: 6 kernels, 29 B.
constexpr Pass kRouterFused = {26, 29, 7, 6};
// Token dropping (moe_routing=drop, with or without padding): the capacity mask's topk over the
// tokens r2, zeros w2 + scatter (copy r2 w2), .bool() r2 w1, probs x mask r2 r1 w2: 6 kernels,
// 16 B; backward the multiply's r2 r1 w2 and the scatter's: 2 kernels, 10 B.
constexpr Pass kCapacityMask = {16, 10, 6, 2};

}  // namespace

double MoeHostSyncs(const PlanShape& p) {
  if (p.kernels.moe_pad_to_capacity) return 0;  // every size known on the host
  // torchtitan's expert-parallel dispatch moves the all-to-all splits to the host (.tolist());
  // without EP its grouped GEMM takes device-side offsets.
  if (p.kernels.Pytorch()) return p.ep > 1 ? 1 : 0;
  // HybridEP's blocking dispatch_with_permute sizes its output on the host once (AutoModel passes
  // num_permuted_tokens=None, so non_blocking is false: fused_a2a.py @ 60dfabfe3); no permute.
  if (HybridEpPermute(p)) return 1;
  // Megatron-Core's alltoall dispatcher: one D2H + event.synchronize() per layer
  // (MoEAlltoAllTokenDispatcher._maybe_dtoh_and_synchronize); the unfused permute's two
  // masked_select calls each size their output on the host (nonzero), two more.
  return 1 + (p.kernels.moe_permute_fusion ? 0 : 2);
}

bool MoeExpertsOutsideGraph(const PlanShape& p) {
  return p.kernels.cuda_graphs && MoeHostSyncs(p) > 0;
}

ElementwiseOp MoeRouterOp(const CostGraph& d, const PlanShape& p) {
  const double elems = p.tokens / p.tp * d.experts;  // the [T/tp, E] logits
  const Pass& r = p.kernels.moe_router_fusion ? kRouterFused : kRouterUnfused;
  const double dispatcher_kernels = (p.ep * p.etp > 1 || p.tp > 1) ? 7 : 2;
  double fwd = r.fwd_bytes + 1, bwd = r.bwd_bytes;
  double fwd_k = r.fwd_kernels + dispatcher_kernels, bwd_k = r.bwd_kernels;
  if (p.moe_dropping) {
    fwd += kCapacityMask.fwd_bytes;
    bwd += kCapacityMask.bwd_bytes;
    fwd_k += kCapacityMask.fwd_kernels;
    bwd_k += kCapacityMask.bwd_kernels;
  }
  return {"moe router", fwd * elems, bwd * elems, fwd_k, bwd_k};
}

// Megatron-Core 0.12's permute / unpermute (moe_utils.py) on the alltoall dispatcher. S routed
// copies leave this rank (T/tp x top_k; capacity x experts when padded), R reach its experts
// (RoutedTokens), N = T/tp tokens, h hidden, [N, E] the routing map.
//  unfused forward: permute: map .T.contiguous() r1 w1, arange, masked_select of the token
//    indices (3 kernels, r1), probs .T.contiguous() r2 w2 and masked_select (3, r1),
//    tokens.index_select r2h w2h per copy; unpermute: zeros w2h per token, scatter_add_ r2h and
//    a read-modify-write of the output (6h per copy); with >1 local expert sort_chunks_by_idxs
//    (torch.cat) r2h w2h per received copy going in (and r2 w2 of its prob) and coming out.
//    12 kernels (+3 with local experts > 1), 8 B per map element, 10h per copy sent, 2h per
//    token, 8h + 4 per copy received.
//  unfused backward: scatter_add's gather r2h w2h, index_select's zeros + index_add (2h per
//    token, 6h per copy), the probs' masked_scatter into zeros and transpose (9 B per map
//    element): 6 kernels (+3), 10h per copy sent, 2h per token, the sort as forward.
//  moe_probs=output: the unpermute also selects the probs (r2 w2 + r1 w1 + masked_select,
//    7 B) and scales the copies (r2h w2h): 6 more kernels; backward 8h per copy, 9 B, 5 kernels.
//  fused (TE permutation.py, Triton): make_row_id_map's two passes r1 w8, r8 w8 (int64 map),
//    permute_with_mask_map r2h w2h per copy and the map r8, unpermute_with_mask_map r2h per copy
//    w2h per token and the map r8: 4 kernels, 41 B per map element, 6h per copy, 2h per token;
//    sort_chunks_by_map with its chunk map, going in and out: 4 kernels, 8h per received copy.
//    Backward: each kernel's mirror, 2 kernels (+2), 6h per copy, 2h per token, 16 B.
//  DeepEP (Megatron-Core's flex dispatcher, `--moe-enable-deepep`, and NeMo AutoModel's port of
//    it, nemo_automodel/components/moe/megatron/token_dispatcher.py @ 8d9bfb90, _DeepepManager):
//    the dispatch kernel reads each token once per destination GPU and permutes nothing on the
//    sender; get_permuted_hidden_states_by_experts permutes the received tokens into per-expert
//    copies (moe_utils.permute over the dispatched [received, local experts] map) and
//    get_restored_hidden_states_by_experts merges them back (unpermute) before the combine, with
//    no chunk sort. The same per-copy and per-token bytes as above, over the received copies,
//    the received tokens (n · D_gpu, D_gpu the distinct GPUs a token reaches: ExpectedUnitsHit)
//    and their map, without sort_chunks_by_idxs.
//  HybridEP (moe_hybridep): none; its dispatch kernel writes per-expert order (HybridEpPermute).
ElementwiseOp MoePermuteOp(const CostGraph& d, const PlanShape& p) {
  const double h = d.hidden;
  double n = p.tokens / p.tp, map = n * d.experts;
  const double cf = p.kernels.moe_pad_to_capacity ? p.moe_load : 1.0;
  double sent = n * d.top_k * cf;
  const double received = RoutedTokens(d, p);
  bool sort = LocalExperts(d, p) > 1;
  if (HybridEpPermute(p)) return {"moe permute", 0, 0, 0, 0};  // inside the dispatch kernel
  if (DeepEpPermute(p)) {
    n *= ExpectedUnitsHit(d.experts, d.top_k, d.router_groups, d.router_group_topk,
                          static_cast<double>(p.ep)) *
         p.moe_load;
    map = n * LocalExperts(d, p);
    sent = received;
    sort = false;
  }
  const double sort_bytes = sort ? received * (8 * h + 4) : 0;
  ElementwiseOp op{"moe permute", 0, 0, 0, 0};
  if (p.kernels.moe_permute_fusion && !p.kernels.Pytorch()) {
    op.fwd_bytes = 41 * map + 6 * h * sent + 2 * h * n + sort_bytes;
    op.bwd_bytes = 16 * map + 6 * h * sent + 2 * h * n + sort_bytes;
    op.fwd_kernels = 4 + (sort ? 4 : 0);
    op.bwd_kernels = 2 + (sort ? 2 : 0);
    return op;
  }
  op.fwd_bytes = 8 * map + 10 * h * sent + 2 * h * n + sort_bytes;
  op.bwd_bytes = 9 * map + 10 * h * sent + 2 * h * n + sort_bytes;
  op.fwd_kernels = 12 + (sort ? 3 : 0);
  op.bwd_kernels = 6 + (sort ? 3 : 0);
  if (p.recipe.moe_probs == MoeProbs::kOutput) {
    op.fwd_bytes += 7 * map + 4 * h * sent;
    op.bwd_bytes += 9 * map + 8 * h * sent;
    op.fwd_kernels += 6;
    op.bwd_kernels += 5;
  }
  return op;
}

// Each host sync: the D2H copy is one more op in the stream (enqueued and completed like a
// kernel), and once the host has waited for it the launch queue is empty, so the next kernel
// reaches the GPU only a full launch later. Both cost kernel_launch_us, the eager launch even
// under CUDA graphs (the host launches again): 2 launches per sync, forward only, no bytes (the
// counts are a few hundred bytes over the host link).
ElementwiseOp MoeHostSyncOp(const PlanShape& p) {
  ElementwiseOp op{"moe host sync", 0, 0, 2 * MoeHostSyncs(p), 0};
  op.eager = true;
  return op;
}

}  // namespace paraplan
