#include "cost/layer_cost.h"

#include <algorithm>

#include "cost/activation_terms.h"
#include "cost/compute_cost.h"
#include "cost/elementwise_cost.h"
#include "cost/moe_ops.h"
#include "cost/op_checkpoint.h"
#include "hardware/collective_cost.h"

namespace paraplan {
namespace {

constexpr double kAct = 2.0;  // bytes per 16-bit activation element

// Fraction of a tensor-parallel collective that stays exposed when overlapped with the GEMMs it
// feeds: the collective is split into tp chunks pipelined with the GEMM chunks (Wang et al.,
// ASPLOS'23, "Overlap communication with dependent computation via decomposition"), so at best
// one chunk of tp is exposed, and no more can hide than the GEMM time.
double Exposed(double comm_s, double hide_under_s, double chunks) {
  const double floor_s = comm_s / std::max(chunks, 1.0);
  return std::max(floor_s, comm_s - hide_under_s);
}

struct Work {
  double gemm_s = 0;  // forward GEMMs
  double attention_flops = 0;
  AttentionShape attention_shape;
  std::vector<LayerOpRow>* rows = nullptr;  // explain's per-op table, when asked for

  // `count` GEMMs of m x n x k: adds their forward seconds (and a row when rows are kept).
  void Gemm(const Cluster& c, Precision pr, const char* name, double count, double m, double n,
            double k) {
    const double s = count * GemmSeconds(c, pr, m, n, k);
    gemm_s += s;
    if (!rows || s <= 0) return;
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
        out.n = (heads + 2 * std::max(d.kv_heads / p.tp, 1.0)) * g.head_width;
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
    (g.mlp_block ? mlp : attn).Gemm(c, p.precision, g.name, l.count, l.rows, l.n, l.k);
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
  return blocks * (GemmSeconds(c, pr, queries, p.seq, d.qk_head_dim) +
                   GemmSeconds(c, pr, queries, d.v_head_dim, p.seq));
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

void Communication(const CostGraph& d, int kind, const PlanShape& p, const NetworkLinks& links,
                   double attn_gemm_s, double mlp_gemm_s, double attn_fwd_s, double attn_bwd_s,
                   LayerCost& out) {
  const double h = d.hidden, t = p.tokens;
  if (p.tp > 1) {
    // Per layer: 2 all-reduces forward and 2 backward (Megatron-LM, Shoeybi et al. 2019), or as
    // many all-gather + reduce-scatter pairs with sequence parallelism; MoE layers keep only the
    // attention's pair (the experts exchange tokens by all-to-all).
    const double bytes = kAct * t * h;
    const double one =
        p.sequence_parallel
            ? CollectiveSeconds(CollectiveOp::kAllGather, bytes, p.groups.tp, links) +
                  CollectiveSeconds(CollectiveOp::kReduceScatter, bytes, p.groups.tp, links)
            : CollectiveSeconds(CollectiveOp::kAllReduce, bytes, p.groups.tp, links);
    const bool dense = !(kind & 1);
    const double per_pass = one * (dense ? 2.0 : 1.0);
    // Overlapped, each block's pair hides only under that block's own GEMMs (the all-gather feeds
    // the block's first GEMM, the reduce-scatter drains its last): the attention pair under the
    // QKV and output projections, the MLP pair under the MLP's (backward: twice the GEMMs).
    auto exposed = [&](double gemm_factor) {
      if (!p.overlap_tp) return per_pass;
      double s = Exposed(one, gemm_factor * attn_gemm_s, p.tp);
      if (dense) s += Exposed(one, gemm_factor * mlp_gemm_s, p.tp);
      return s;
    };
    out.comm_busy_fwd_s[kCommTp] = per_pass;
    out.comm_busy_bwd_s[kCommTp] = per_pass;
    out.tp_comm_fwd_s = exposed(1.0);
    const double bwd = exposed(2.0);
    out.tp_comm_s = out.tp_comm_fwd_s + bwd;
    if (p.groups.tp.tier >= 1) {
      out.net_fwd_s += per_pass;
      out.net_bwd_s += per_pass;
    }
  }
  if (p.cp > 1) {
    // Ring attention: cp-1 steps passing this rank's K/V chunk, hidden under attention compute;
    // backward passes K/V and their gradients (Liu et al. 2023; Megatron-LM context parallel).
    const double kv = d.mla ? d.heads / p.tp : std::max(d.kv_heads / p.tp, 1.0);
    const double bytes = kAct * t * kv * (d.qk_head_dim + d.v_head_dim);
    const double step = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, p.groups.cp, links);
    const double fwd = (p.cp - 1) * step, bwd = 2 * fwd;
    out.comm_busy_fwd_s[kCommCp] = fwd;
    out.comm_busy_bwd_s[kCommCp] = bwd;
    out.cp_comm_fwd_s = std::max(0.0, fwd - attn_fwd_s);
    out.cp_comm_s = out.cp_comm_fwd_s + std::max(0.0, bwd - attn_bwd_s);
    if (p.groups.cp.tier >= 1) {
      out.net_fwd_s += fwd;
      out.net_bwd_s += bwd;
    }
  }
  if ((kind & 1) && p.ep * p.etp > 1) {
    // Dispatch + combine forward, and again backward; the busiest rank receives moe_load x.
    const double bytes = kAct * (t / p.tp) * d.top_k * h * p.moe_load;
    double pass = 2 * CollectiveSeconds(CollectiveOp::kAllToAll, bytes, p.groups.ep, links);
    if (p.etp > 1) {
      pass += 2 * CollectiveSeconds(CollectiveOp::kAllGather, bytes * p.etp, p.groups.etp, links);
    }
    // Overlap hides the all-to-alls under the attention and shared-expert work of another
    // micro-batch (Megatron-LM's EP overlap); DualPipe overlaps a forward with a backward chunk.
    const double hide = p.dualpipe ? out.fwd_s + out.bwd_s
                                   : (p.overlap_ep ? attn_fwd_s + (attn_gemm_s + mlp_gemm_s) : 0);
    out.comm_busy_fwd_s[kCommEp] = pass;
    out.comm_busy_bwd_s[kCommEp] = pass;
    out.ep_comm_fwd_s = std::max(0.0, pass - hide / 2);
    out.ep_comm_s = out.ep_comm_fwd_s + std::max(0.0, pass - hide / 2);
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

PlanShape MakePlanShape(const CostGraph& d, const ParallelPlan& plan, const Cluster& cluster) {
  return MakePlanShape(d, plan, PlacePlan(plan, cluster));
}

PlanShape MakePlanShape(const CostGraph& d, const ParallelPlan& plan, const PlanPlacement& groups) {
  PlanShape p;
  p.seq = static_cast<double>(plan.seq_len > 0 ? plan.seq_len : d.seq_len);
  p.tp = static_cast<double>(plan.tp);
  p.cp = static_cast<double>(plan.cp);
  p.ep = static_cast<double>(plan.ep);
  p.etp = static_cast<double>(plan.etp);
  p.tokens = static_cast<double>(plan.micro_batch) * p.seq / p.cp;
  p.sequence_parallel = plan.sequence_parallel && plan.tp > 1;
  p.norm_tokens = p.sequence_parallel ? p.tokens / p.tp : p.tokens;
  p.moe_load = std::max(plan.moe_imbalance, 1.0);
  p.moe_dropping = plan.moe_routing == MoeRouting::kDrop;
  if (p.moe_dropping) p.moe_load = std::min(p.moe_load, plan.moe_capacity_factor);
  // --moe-pad-expert-input-to-capacity: every expert computes exactly its capacity, capacity
  // factor x its mean tokens, whatever the load (moe_utils.py topk_softmax_with_capacity).
  if (p.moe_dropping && plan.kernels.moe_pad_to_capacity) p.moe_load = plan.moe_capacity_factor;
  p.recompute = plan.recompute;
  p.precision = plan.precision;
  p.recipe = plan.recipe;
  p.kernels = plan.kernels;
  p.overlap_tp = plan.overlap_tp_comm;
  p.overlap_ep = plan.overlap_ep_comm;
  p.dualpipe = plan.schedule == Schedule::kDualPipe;
  p.groups = groups;
  return p;
}

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
  Communication(d, kind, p, links, attn.gemm_s, mlp.gemm_s, attn_fwd, attn_bwd, out);
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
