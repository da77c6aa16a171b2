#include "cost/layer_comm.h"

#include <algorithm>

#include "cost/moe_dispatch.h"
#include "cost/overlap_sm.h"
#include "cost/torchao_float8.h"
#include "hardware/nccl_channels.h"

namespace paraplan {
namespace {

// Fraction of a tensor-parallel collective that stays exposed when overlapped with the GEMMs it
// feeds: the collective is split into tp chunks pipelined with the GEMM chunks (Wang et al.,
// ASPLOS'23, "Overlap communication with dependent computation via decomposition"), so at best
// one chunk of tp is exposed, and no more can hide than the GEMM time.
double Exposed(double comm_s, double hide_under_s, double chunks) {
  const double floor_s = comm_s / std::max(chunks, 1.0);
  return std::max(floor_s, comm_s - hide_under_s);
}

// One block's TP pair (all-gather `ag_s` + reduce-scatter `rs_s`, or an all-reduce split in two)
// overlapped with its GEMMs: exposed as Exposed(). The SMs, as Transformer Engine's userbuffers
// run it under NeMo's configs (kTeAttentionSms, kTeMlpSms): forward, the reduce-scatter pipelined
// with the row-parallel GEMM (set_sm_margin: that GEMM runs on S - fprop_margin) and the
// all-gather ring-exchanged beside the column GEMM (1 SM while it runs); backward, the
// ring-exchanged all-gather beside the row GEMM's dgrad (1 SM) and the column dgrad's
// reduce-scatter in bulk beside the wgrad (wgrad_bulk SMs while it runs). PyTorch's async TP
// (fusion eager/compile) moves its chunks with copy engines over symmetric memory and holds no SM;
// its extra kernels are element-wise ops (elementwise_cost.h). Its backward fuses only the
// all-gather: the inductor pass (torch/_inductor/fx_passes/micro_pipeline_tp.py,
// fuse_matmul_reduce_scatter) fuses a reduce-scatter only when a matmul produces its input, and
// the column-parallel input gradient that the backward reduce-scatters is the sum of the split
// linears' dgrads (torchtitan's wq + wk + wv, w1 + w3): "In the backward graph, the
// reduce-scatters are receiving as input the addition of various scaled_mms, so it's not what we
// are looking to fuse" (pytorch/pytorch PR 149946, review of 2025-03-28). That reduce-scatter
// stays a blocking NCCL one; the output gradient's all-gather is fused with the row-parallel
// dgrad (the matmul that consumes it as its first operand).
void TpBlockOverlap(const TpBlock& b, double ag_s, double rs_s, double tp, const GpuSpec& gpu,
                    const TeBlockSms* te, double& exposed_fwd, double& exposed_bwd,
                    double& loss_fwd, double& loss_bwd) {
  const double one = ag_s + rs_s;
  const double ef = Exposed(one, b.gemm_s, tp);
  exposed_fwd += ef;
  if (te == nullptr) {
    exposed_bwd += Exposed(ag_s, b.row_gemm_s, tp) + rs_s;
    return;
  }
  const double eb = Exposed(one, 2 * b.gemm_s, tp);
  exposed_bwd += eb;
  const double ag_share = one > 0 ? ag_s / one : 0;
  const double ring = SmShare(kTeRingExchangeSms, gpu);
  const double bulk = SmShare(te->wgrad_bulk, gpu);
  loss_fwd += MarginLossSeconds(b.row_gemm_s, te->fprop_margin, gpu) + (one - ef) * ag_share * ring;
  loss_bwd += (one - eb) * (ag_share * ring + (1 - ag_share) * bulk);
}

void TensorParallel(const CostGraph& d, int kind, const PlanShape& p, const NetworkLinks& links,
                    const GpuSpec& gpu, const TpBlock& attn, const TpBlock& mlp, LayerCost& out) {
  // Per layer: 2 all-reduces forward and 2 backward (Megatron-LM, Shoeybi et al. 2019), or as
  // many all-gather + reduce-scatter pairs with sequence parallelism; MoE layers keep only the
  // attention's pair (the experts exchange tokens by all-to-all).
  // torchao's float8 TP gathers fp8 (cost/torchao_float8.h); the reduce-scatters stay bf16.
  const double bytes = kAct * p.tokens * d.hidden;
  double ag = 0, rs = 0;
  if (p.sequence_parallel) {
    const double ag_bytes = TpAllGatherBytesPerElement(p) * p.tokens * d.hidden;
    ag = CollectiveSeconds(CollectiveOp::kAllGather, ag_bytes, p.groups.tp, links);
    rs = CollectiveSeconds(CollectiveOp::kReduceScatter, bytes, p.groups.tp, links);
  } else {
    ag = rs = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, p.groups.tp, links) / 2;
  }
  const double one = ag + rs;
  const bool dense = !(kind & 1);
  const double per_pass = one * (dense ? 2.0 : 1.0);
  out.comm_busy_fwd_s[kCommTp] = per_pass;
  out.comm_busy_bwd_s[kCommTp] = per_pass;
  if (!p.overlap_tp) {
    out.tp_comm_fwd_s = per_pass;
    out.tp_comm_s = 2 * per_pass;
  } else {
    // Overlapped, each block's pair hides only under that block's own GEMMs (the all-gather
    // feeds the block's first GEMM, the reduce-scatter drains its last): the attention pair
    // under the QKV and output projections, the MLP pair under the MLP's (backward: twice).
    double fwd = 0, bwd = 0;
    const bool te = !p.kernels.Pytorch();
    TpBlockOverlap(attn, ag, rs, p.tp, gpu, te ? &kTeAttentionSms : nullptr, fwd, bwd,
                   out.sm_loss_fwd_s[kCommTp], out.sm_loss_bwd_s[kCommTp]);
    if (dense) {
      TpBlockOverlap(mlp, ag, rs, p.tp, gpu, te ? &kTeMlpSms : nullptr, fwd, bwd,
                     out.sm_loss_fwd_s[kCommTp], out.sm_loss_bwd_s[kCommTp]);
    }
    out.tp_comm_fwd_s = fwd;
    out.tp_comm_s = fwd + bwd;
  }
  if (p.groups.tp.tier >= 1) {
    out.net_fwd_s += per_pass;
    out.net_bwd_s += per_pass;
  }
  if (p.recompute == Recompute::kOp && p.sequence_parallel) {
    // torchtitan's per-op SAC saves the reduce-scatter's output but not the all-gather's
    // (_save_list, torchtitan/models/llama3/parallelize_llama.py at 820504e): the backward's
    // recompute gathers each block's input again, as exposed as the forward's all-gathers.
    const double n_ag = dense ? 2.0 : 1.0;
    const double ag_share = one > 0 ? ag / one : 0;
    out.tp_comm_s += p.overlap_tp ? out.tp_comm_fwd_s * ag_share : n_ag * ag;
    out.comm_busy_bwd_s[kCommTp] += n_ag * ag;
    if (p.groups.tp.tier >= 1) out.net_bwd_s += n_ag * ag;
  }
}

// The MoE layer's small blocking collectives of the forward, before the dispatch (both on the
// compute stream, latency-bound):
//  - token counts: Megatron-Core's alltoall dispatcher all-gathers each rank's tokens per expert
//    (int64) over its tp_ep group (etp x ep) to size the all-to-all (MoEAlltoAllTokenDispatcher.
//    preprocess, gather_from_sequence_parallel_region(num_local_tokens_per_expert,
//    group=self.tp_ep_group)), except with drop-and-pad, where every size is the capacity;
//    torchtitan's expert parallelism exchanges them with an all-to-all over ep
//    (all_to_all_single of num_tokens_per_expert); DeepEP and DualPipe count inside the dispatch;
//  - the aux loss: with sequence parallelism or cp, the tokens per expert (fp32) all-reduced over
//    tp x cp (Megatron-Core's switch_load_balancing_loss_func over the sequence partition
//    group), Megatron-Core's default --moe-router-load-balancing-type aux_loss.
double MoeCountCollectivesSeconds(const CostGraph& d, const PlanShape& p, const NetworkLinks& links,
                                  bool two_hop) {
  constexpr double kCountBytes = 8, kAuxBytes = 4;
  double s = 0;
  if (p.kernels.Pytorch()) {
    if (p.ep > 1) {
      s += CollectiveSeconds(CollectiveOp::kAllToAll, kCountBytes * d.experts, p.groups.ep, links);
    }
    return s;
  }
  const bool padded = p.moe_dropping && p.kernels.moe_pad_to_capacity;
  if (!two_hop && !padded && p.groups.etp_ep.size > 1) {
    s += CollectiveSeconds(CollectiveOp::kAllGather,
                           kCountBytes * d.experts * static_cast<double>(p.groups.etp_ep.size),
                           p.groups.etp_ep, links);
  }
  if ((p.sequence_parallel || p.cp > 1) && p.groups.tp_cp.size > 1) {
    s += CollectiveSeconds(CollectiveOp::kAllReduce, kAuxBytes * d.experts, p.groups.tp_cp, links);
  }
  return s;
}

}  // namespace

void LayerCommunication(const CostGraph& d, int kind, const PlanShape& p, const NetworkLinks& links,
                        const Cluster& c, const TpBlock& attn_block, const TpBlock& mlp_block,
                        double attn_fwd_s, double attn_bwd_s, LayerCost& out) {
  const double h = d.hidden, t = p.tokens;
  if (p.tp > 1) TensorParallel(d, kind, p, links, c.gpu, attn_block, mlp_block, out);
  if (p.cp > 1) {
    // Ring attention: cp-1 steps passing this rank's K/V chunk, hidden under attention compute;
    // backward passes K/V and their gradients (Liu et al. 2023; Megatron-LM context parallel).
    // The sends and receives are NCCL peer-to-peer kernels beside the attention. PyTorch's ring
    // (eager/compile) passes the gradients in fp32 at all cp steps (the last returns them home).
    const double bytes = kAct * t * AttentionKvHeads(d, p) * (d.qk_head_dim + d.v_head_dim);
    const double step = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, p.groups.cp, links);
    const double fwd = (p.cp - 1) * step;
    const double bwd =
        p.kernels.Pytorch()
            ? fwd + p.cp * CollectiveSeconds(CollectiveOp::kSendRecv, 2 * bytes, p.groups.cp, links)
            : 2 * fwd;
    const double share = SmShare(NcclKernelCtas(CollectiveOp::kSendRecv, p.groups.cp, c), c.gpu);
    const OverlapCost of = OverlapSeconds(fwd, attn_fwd_s, 0, share);
    const OverlapCost ob = OverlapSeconds(bwd, attn_bwd_s, 0, share);
    out.comm_busy_fwd_s[kCommCp] = fwd;
    out.comm_busy_bwd_s[kCommCp] = bwd;
    out.cp_comm_fwd_s = of.exposed_s;
    out.cp_comm_s = of.exposed_s + ob.exposed_s;
    out.sm_loss_fwd_s[kCommCp] = of.sm_loss_s;
    out.sm_loss_bwd_s[kCommCp] = ob.sm_loss_s;
    if (p.groups.cp.tier >= 1) {
      out.net_fwd_s += fwd;
      out.net_bwd_s += bwd;
    }
  }
  if ((kind & 1) && p.ep * p.etp > 1) {
    // Dispatch + combine forward, and again backward; the busiest rank receives moe_load x.
    // Megatron-Core's alltoall dispatcher sends one copy per (token, expert) pair; DualPipe and
    // DeepEP one per destination node and GPU, in two hops (cost/moe_dispatch.h).
    const double bytes = kAct * (t / p.tp) * d.top_k * h * p.moe_load;
    // Each direction runs one dispatch and one combine pass (TwoHopPassesOf).
    const bool two_hop = UsesTwoHop(p);
    double pass = 0;
    if (two_hop) {
      pass = TwoHopPassPairSeconds(TwoHopPassesOf(d, p), c, p.groups.ep, links, TwoHopEngineOf(p));
    } else {
      pass = 2 * CollectiveSeconds(CollectiveOp::kAllToAll, bytes, p.groups.ep, links);
    }
    if (p.etp > 1) {
      pass += 2 * CollectiveSeconds(CollectiveOp::kAllGather, bytes * p.etp, p.groups.etp, links);
    }
    // A forward chunk and a backward chunk of two micro-batches run as a pair, each one's
    // dispatch and combine beside the other's compute (DualPipe: DeepSeek-V3 report §3.2.1,
    // Figure 4, the whole chunk pair's compute; Megatron-LM's EP overlap: the attention and
    // dense/shared-expert work of the other micro-batch). The pair's 2 passes hide under the
    // pair's compute `hide`, i.e. each pass under hide / 2, on the SMs its kernels hold:
    // DualPipe's 20 (§3.2.2), DeepEP's 20, NCCL's all-to-all CTAs for Megatron's alltoall
    // dispatcher.
    const double hide =
        p.dualpipe ? out.fwd_s + out.bwd_s
                   : (p.overlap_ep ? attn_fwd_s + attn_block.gemm_s + mlp_block.gemm_s : 0);
    const double share =
        p.dualpipe      ? SmShare(kDualPipeCommSms, c.gpu)
        : !p.overlap_ep ? 0.0
                        : SmShare(p.kernels.moe_hybridep ? kHybridEpSms
                                  : p.kernels.moe_deepep
                                      ? kDeepEpSms
                                      : NcclKernelCtas(CollectiveOp::kAllToAll, p.groups.ep, c),
                                  c.gpu);
    const OverlapCost o = OverlapSeconds(pass, hide / 2, 0, share);
    const double counts = MoeCountCollectivesSeconds(d, p, links, two_hop);
    out.comm_busy_fwd_s[kCommEp] = pass + counts;
    out.comm_busy_bwd_s[kCommEp] = pass;
    out.ep_comm_fwd_s = o.exposed_s + counts;
    out.ep_comm_s = 2 * o.exposed_s + counts;
    out.sm_loss_fwd_s[kCommEp] = o.sm_loss_s;
    out.sm_loss_bwd_s[kCommEp] = o.sm_loss_s;
    if (p.groups.ep.tier >= 1) {
      out.net_fwd_s += pass;
      out.net_bwd_s += pass;
    }
  }
}

// Full recompute re-runs each layer's forward inside its backward, collectives included (Megatron-
// LM's CheckpointFunction and PyTorch's activation checkpointing replay the forward's TP
// all-reduces or all-gathers / reduce-scatters, CP's K/V ring and EP's dispatch and combine): the
// backward pays the forward's communication once more, exposed as in the forward, and occupies
// the network tier again.
void RecomputedCommunication(LayerCost& out) {
  out.tp_comm_s += out.tp_comm_fwd_s;
  out.cp_comm_s += out.cp_comm_fwd_s;
  out.ep_comm_s += out.ep_comm_fwd_s;
  out.net_bwd_s += out.net_fwd_s;
  for (size_t g = 0; g < out.comm_busy_bwd_s.size(); ++g) {
    out.comm_busy_bwd_s[g] += out.comm_busy_fwd_s[g];
    out.sm_loss_bwd_s[g] += out.sm_loss_fwd_s[g];
  }
}

}  // namespace paraplan
