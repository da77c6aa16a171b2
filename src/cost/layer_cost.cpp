#include "cost/layer_cost.h"

#include <algorithm>

#include "cost/activation_terms.h"
#include "cost/compute_cost.h"
#include "cost/elementwise_cost.h"
#include "cost/moe_dispatch.h"
#include "cost/moe_ops.h"
#include "cost/op_checkpoint.h"
#include "cost/overlap_sm.h"
#include "cost/torchao_float8.h"
#include "hardware/collective_cost.h"
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

struct Work {
  double gemm_s = 0;      // forward GEMMs
  double row_gemm_s = 0;  // of which the row-parallel ones (output projection, MLP down)
  double attention_flops = 0;
  AttentionShape attention_shape;
  std::vector<LayerOpRow>* rows = nullptr;  // explain's per-op table, when asked for

  // `count` GEMMs of m x n x k: adds their forward seconds (and a row when rows are kept).
  double Gemm(const Cluster& c, Precision pr, const char* name, double count, double m, double n,
              double k) {
    const double s = count * GemmSeconds(c, pr, m, n, k);
    gemm_s += s;
    if (!rows || s <= 0) return s;
    const double bytes = count * GemmBytes(pr, m, n, k);
    LayerOpRow row;
    row.name = name;
    row.flops = count * 2 * m * n * k;
    row.bytes = bytes;
    row.kernels = 1;
    row.fwd_s = s;
    row.bwd_s = 2 * s;
    row.memory_s = MemoryBoundSeconds(c, bytes);
    row.compute_s = s;  // GemmSeconds is the larger of compute and memory: memory_s shows which
    rows->push_back(row);
    return s;
  }
};

// One GEMM op of the layer graph on this GPU under the plan: `count` matrices of rows × n × k.
struct LocalGemm {
  double count = 1, rows = 0, n = 0, k = 0;
};

// The split rules (Megatron-LM / Megatron-Core): column ops split N by tp and row ops split K by
// tp — the attention's by whole heads, K and V heads replicating when tp > kv_heads (each rank
// keeps at least one); replicated ops run unsplit on all tokens, except the router, which runs on
// the t/tp local tokens the MoE block's sequence-parallel input holds; routed experts: ep ranks
// hold experts/ep matrices each, etp splits their ffn width (column up, row down), and the
// busiest rank's matrices take the t/tp local tokens × top_k, moe_load × the mean, of all etp
// ranks' tokens (gathered), spread over its experts.
LocalGemm Split(const CostGraph& d, const LayerGemm& g, const PlanShape& p) {
  LocalGemm out;
  out.rows = p.tokens;
  out.n = g.n;
  out.k = g.k;
  if (g.expert) {
    const double routed = (p.tokens / p.tp) * g.active * p.moe_load * p.etp;
    out.count = g.count / p.ep;
    out.rows = routed / out.count;
    if (g.split == GemmSplit::kColumn) out.n = g.n / p.etp;
    if (g.split == GemmSplit::kRow) out.k = g.k / p.etp;
    return out;
  }
  const double heads = d.heads / p.tp;
  switch (g.split) {
    case GemmSplit::kColumn:
      if (g.qkv) {
        out.n = (heads + 2 * ProjectedKvHeads(d, p)) * g.head_width;
      } else {
        out.n = g.head_width > 0 ? heads * g.head_width : g.n / p.tp;
      }
      break;
    case GemmSplit::kRow:
      out.k = g.head_width > 0 ? heads * g.head_width : g.k / p.tp;
      break;
    case GemmSplit::kReplicated:
      if (g.mlp_block) out.rows = p.tokens / p.tp;  // the router
      break;
  }
  return out;
}

// The layer's GEMMs from the layer graph (CostGraph::gemms), split by the plan; the attention
// block's into `attn`, the MLP block's into `mlp`; the attention core's FLOPs and shape.
void LayerWork(const CostGraph& d, int kind, const PlanShape& p, const Cluster& c, Work& attn,
               Work& mlp) {
  const LayerGemms& gemms = d.gemms[static_cast<size_t>(kind)];
  for (size_t i = 0; i < gemms.size; ++i) {
    const LayerGemm& g = gemms.ops[i];
    const LocalGemm l = Split(d, g, p);
    Work& w = g.mlp_block ? mlp : attn;
    const double s = w.Gemm(c, p.precision, g.name, l.count, l.rows, l.n, l.k);
    if (!g.expert && g.split == GemmSplit::kRow) w.row_gemm_s += s;
  }
  attn.attention_flops =
      p.tokens * AttentionCoreFlopsPerToken(d, kind, static_cast<int64_t>(p.seq)) / p.tp;
  attn.attention_shape = {p.seq / p.cp, d.heads / p.tp, d.qk_head_dim};
}

// Core attention without FlashAttention (fusion=apex, Megatron-LM before 2022): the batched
// GEMMs QKᵀ and PV over the full s x s scores of every local head (causal masking zeroes half of
// them after the fact), at the GEMM model's rate; the softmax and dropout on the scores are
// element-wise ops (elementwise_cost.h). Backward: twice the forward's GEMMs.
double UnfusedAttentionSeconds(const CostGraph& d, const PlanShape& p, const Cluster& c) {
  const double heads = d.heads / p.tp, queries = p.seq / p.cp;
  const double blocks = (p.tokens / queries) * heads;  // (sequence, head) pairs on this GPU
  const Precision pr = p.precision == Precision::kFp8 ? Precision::kBf16 : p.precision;
  return BatchedGemmSeconds(c, pr, blocks, queries, p.seq, d.qk_head_dim) +
         BatchedGemmSeconds(c, pr, blocks, queries, d.v_head_dim, p.seq);
}

// Activations kept for backward (no recompute), FlashAttention (no s x s matrix), no dropout:
// the sum of cost/activation_terms.h's terms. Without FlashAttention the softmax output, the
// dropout mask and the dropout output stay too: 5 bytes per score (Korthikanti et al. 2022's
// 5as/h term).
void Activations(const CostGraph& d, int kind, const PlanShape& p, LayerCost& out) {
  const double tn = p.norm_tokens, h = d.hidden;
  double bytes = ComputeActivationTerms(d, kind, p).Total();
  if (!p.kernels.FlashAttention()) bytes += 5.0 * p.tokens * (d.heads / p.tp) * p.seq;
  out.act_full_bytes = bytes;
  // Op and selective recompute start from the full set; ComputeLayerCost then applies
  // ComputeOpCheckpoint / ApplyMemoryRecipe.
  out.act_bytes = bytes;
  if (p.recompute == Recompute::kFull) {
    out.act_bytes = kAct * tn * h;  // the layer input only
    out.act_recompute_bytes = bytes;
  }
}

void Params(const CostGraph& d, int kind, const PlanShape& p, LayerCost& out) {
  const double split_attn = d.attn_params - d.attn_params_replicated;
  out.params_local = d.attn_params_replicated + split_attn / p.tp;
  if (kind & 1) {
    out.params_local += d.moe_other_params / p.tp;
    out.expert_params_local = d.moe_expert_params / (p.ep * p.etp);
  } else {
    out.params_local += d.dense_mlp_params / p.tp;
  }
}

// The block of a layer whose TP pair is overlapped: its GEMMs (forward seconds).
struct TpBlock {
  double gemm_s = 0, row_gemm_s = 0;
};

// One block's TP pair (all-gather `ag_s` + reduce-scatter `rs_s`, or an all-reduce split in two)
// overlapped with its GEMMs: exposed as Exposed(). The SMs, as Transformer Engine's userbuffers
// run it under NeMo's configs (kTeAttentionSms, kTeMlpSms): forward, the reduce-scatter pipelined
// with the row-parallel GEMM (set_sm_margin: that GEMM runs on S - fprop_margin) and the
// all-gather ring-exchanged beside the column GEMM (1 SM while it runs); backward, the
// ring-exchanged all-gather beside the row GEMM's dgrad (1 SM) and the column dgrad's
// reduce-scatter in bulk beside the wgrad (wgrad_bulk SMs while it runs). PyTorch's async TP
// (fusion eager/compile) moves its chunks with copy engines over symmetric memory and holds no SM;
// its extra kernels are element-wise ops (elementwise_cost.h).
void TpBlockOverlap(const TpBlock& b, double ag_s, double rs_s, double tp, const GpuSpec& gpu,
                    const TeBlockSms* te, double& exposed_fwd, double& exposed_bwd,
                    double& loss_fwd, double& loss_bwd) {
  const double one = ag_s + rs_s;
  const double ef = Exposed(one, b.gemm_s, tp), eb = Exposed(one, 2 * b.gemm_s, tp);
  exposed_fwd += ef;
  exposed_bwd += eb;
  if (te == nullptr) return;
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

void Communication(const CostGraph& d, int kind, const PlanShape& p, const NetworkLinks& links,
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
      pass =
          TwoHopPassPairSeconds(TwoHopPassesOf(d, p), c, p.groups.ep, links, p.kernels.moe_deepep);
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
                        : SmShare(p.kernels.moe_deepep
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

// The core attention, the element-wise ops and the GEMM / attention launches as rows.
void AddRows(const Cluster& c, const LayerElementwise& ew, const Work& attn, double attn_fwd,
             double attn_bwd, double matmul_kernels, double launch, double matmul_extra_fwd_s,
             std::vector<LayerOpRow>& rows) {
  LayerOpRow core;
  core.name = "core attention";
  core.flops = attn.attention_flops;
  core.kernels = 1;
  core.fwd_s = core.compute_s = attn_fwd;
  core.bwd_s = attn_bwd;
  rows.push_back(core);
  for (size_t i = 0; i < ew.count; ++i) {
    const ElementwiseOp& op = ew.ops[i];
    LayerOpRow row;
    row.name = op.name;
    row.bytes = op.fwd_bytes;
    row.kernels = op.fwd_kernels;
    const double op_launch = op.eager ? EagerLaunchSeconds(c) : launch;
    row.memory_s = MemoryBoundSeconds(c, op.fwd_bytes);
    row.launch_s = op.fwd_kernels * op_launch;
    row.fwd_s = row.memory_s + row.launch_s;
    row.bwd_s = MemoryBoundSeconds(c, op.bwd_bytes) + op.bwd_kernels * op_launch;
    rows.push_back(row);
  }
  LayerOpRow launches;
  launches.name = "GEMM+attention launches";
  launches.kernels = matmul_kernels;
  launches.fwd_s = launches.launch_s = matmul_kernels * launch + matmul_extra_fwd_s;
  launches.bwd_s = 2 * launches.fwd_s;
  rows.push_back(launches);
}

}  // namespace

LayerCost ComputeLayerCost(const CostGraph& d, int kind, const PlanShape& p, const Cluster& c) {
  return ComputeLayerCost(d, kind, p, c, ResolveNetworkLinks(c));
}

LayerCost ComputeLayerCost(const CostGraph& d, int kind, const PlanShape& p, const Cluster& c,
                           const NetworkLinks& links, std::vector<LayerOpRow>* rows) {
  LayerCost out;
  Work attn, mlp;
  attn.rows = rows;
  mlp.rows = rows;
  LayerWork(d, kind, p, c, attn, mlp);
  const LayerElementwise ew = ComputeLayerElementwise(d, kind, p);
  const double launch = LaunchSeconds(c, p);
  const double matmul_kernels = LayerMatmulKernels(d, kind, p);
  double attn_fwd = 0, attn_bwd = 0;
  if (p.kernels.FlashAttention()) {
    const bool fa2 = p.kernels.Pytorch();
    attn_fwd = AttentionSeconds(c, attn.attention_flops, false, attn.attention_shape, fa2);
    // FlashAttention backward: 5 GEMM-like products to the forward's 2 (Dao 2023): 2.5x FLOPs.
    attn_bwd = AttentionSeconds(c, 2.5 * attn.attention_flops, true, attn.attention_shape, fa2);
  } else {
    attn_fwd = UnfusedAttentionSeconds(d, p, c);
    attn_bwd = 2 * attn_fwd;
  }
  const double gemm = attn.gemm_s + mlp.gemm_s;
  const double mem_fwd = MemoryBoundSeconds(c, ew.FwdBytes());
  // Kernels the host launches outside a CUDA graph pay the eager launch instead of the replay
  // gap: the ops marked eager and, around an MoE layer's host sync, its expert GEMMs (moe_ops.h).
  const double eager_extra = p.kernels.cuda_graphs ? EagerLaunchSeconds(c) - launch : 0.0;
  const double expert_eager = MoeExpertsOutsideGraph(p) ? ExpertGemmKernels(d, kind, p) : 0.0;
  const double eager_fwd_s =
      eager_extra * (ew.EagerKernels(&ElementwiseOp::fwd_kernels) + expert_eager);
  const double eager_bwd_s =
      eager_extra * (ew.EagerKernels(&ElementwiseOp::bwd_kernels) + 2 * expert_eager);
  out.fwd_s = gemm + attn_fwd + mem_fwd + (matmul_kernels + ew.FwdKernels()) * launch + eager_fwd_s;
  // Backward: input-gradient and weight-gradient GEMMs (2x forward) and their launches, the
  // element-wise ops' backward (elementwise_cost.h).
  out.bwd_weight_s = gemm;
  out.bwd_s = 2 * gemm + attn_bwd + MemoryBoundSeconds(c, ew.BwdBytes()) +
              (2 * matmul_kernels + ew.BwdKernels()) * launch + eager_bwd_s;
  if (rows) {
    AddRows(c, ew, attn, attn_fwd, attn_bwd, matmul_kernels, launch, eager_extra * expert_eager,
            *rows);
  }
  if (p.recompute == Recompute::kFull) out.recompute_s = out.fwd_s;
  Activations(d, kind, p, out);
  if (p.recompute == Recompute::kSelective ||
      (p.recompute == Recompute::kNone && p.recipe.fp8_act_cache)) {
    // Megatron-LM's --recompute-modules (core_attn by default) and FP8 activation caching.
    double softmax_fwd = 0;  // the unfused attention's softmax and dropout, redone with it
    if (ew.scores < ew.count) {
      const ElementwiseOp& s = ew.ops[ew.scores];
      softmax_fwd = MemoryBoundSeconds(c, s.fwd_bytes) + s.fwd_kernels * launch;
    }
    const RecipeActivations kept = ApplyMemoryRecipe(
        d, kind, p, c, ComputeActivationTerms(d, kind, p), attn_fwd + softmax_fwd);
    out.act_bytes = kept.kept_bytes;
    out.recompute_s = kept.recompute_s;
  }
  if (p.recompute == Recompute::kOp) {
    // Per-op SAC keeps the SDPA output, so attention is not redone: the unsaved mms and the
    // memory-bound ops (norms, RoPE, activation function) are.
    const OpCheckpointCost op = ComputeOpCheckpoint(d, kind, p, c);
    out.recompute_s = op.recompute_gemm_s + mem_fwd + ew.FwdKernels() * launch;
    out.act_bytes = std::min(op.saved_bytes, out.act_full_bytes);
    out.act_recompute_bytes = out.act_full_bytes - out.act_bytes;
  }
  Params(d, kind, p, out);
  Communication(d, kind, p, links, c, TpBlock{attn.gemm_s, attn.row_gemm_s},
                TpBlock{mlp.gemm_s, mlp.row_gemm_s}, attn_fwd, attn_bwd, out);
  if (p.recompute == Recompute::kFull) RecomputedCommunication(out);
  return out;
}

double KorthikantiActivationBytes(double s, double b, double h, double a, double t,
                                  bool sequence_parallel, Recompute recompute) {
  const double sbh = s * b * h;
  const double attn_matrix = 5.0 * a * s / h;
  switch (recompute) {
    case Recompute::kFull:
      return 2.0 * sbh;
    case Recompute::kSelective:
      return sequence_parallel ? 34.0 * sbh / t : sbh * (10.0 + 24.0 / t);
    case Recompute::kOp:  // not in the paper: the no-recompute formula is its upper bound
    case Recompute::kNone:
      break;
  }
  if (sequence_parallel) return sbh * (34.0 + attn_matrix) / t;
  return sbh * (10.0 + 24.0 / t + attn_matrix / t);
}

}  // namespace paraplan
