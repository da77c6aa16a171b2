#include "cost/layer_cost.h"

#include <algorithm>
#include <cmath>

#include "cost/activation_terms.h"
#include "cost/attention_mask.h"
#include "cost/compute_cost.h"
#include "cost/elementwise_cost.h"
#include "cost/flash_attn_triton.h"
#include "cost/layer_comm.h"
#include "cost/moe_ops.h"
#include "cost/op_checkpoint.h"
#include "cost/torch_grouped_mm.h"
#include "hardware/collective_cost.h"

namespace paraplan {
namespace {

struct Work {
  double gemm_s = 0;      // forward GEMMs
  double row_gemm_s = 0;  // of which the row-parallel ones (output projection, MLP down)
  double attention_flops = 0;
  AttentionShape attention_shape;
  std::vector<LayerOpRow>* rows = nullptr;  // explain's per-op table, when asked for

  // `count` GEMMs of m x n x k: adds their forward seconds (and a row when rows are kept). A
  // positive `ceiling_flops` caps their rate (a kernel's measured rate: cost/torch_grouped_mm.h).
  double Gemm(const Cluster& c, Precision pr, const char* name, double count, double m, double n,
              double k, double ceiling_flops = 0) {
    double one = GemmSeconds(c, pr, m, n, k);
    if (ceiling_flops > 0) one = std::max(one, 2 * m * n * k / ceiling_flops);
    const double s = count * one;
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
  const double expert_ceiling = ExpertGemmCeilingFlops(p, c);
  for (size_t i = 0; i < gemms.size; ++i) {
    const LayerGemm& g = gemms.ops[i];
    const LocalGemm l = Split(d, g, p);
    Work& w = g.mlp_block ? mlp : attn;
    const double s =
        w.Gemm(c, p.precision, g.name, l.count, l.rows, l.n, l.k, g.expert ? expert_ceiling : 0.0);
    if (!g.expert && g.split == GemmSplit::kRow) w.row_gemm_s += s;
  }
  // Packed documents: each query attends within its own (AttentionSpan, plan_shape.h).
  const double span = AttentionSpan(p);
  attn.attention_flops = p.tokens * AttentionCoreFlopsPerToken(d, kind, std::llround(span)) / p.tp;
  attn.attention_shape = {span / p.cp, d.heads / p.tp, d.qk_head_dim};
}

// Core attention without FlashAttention (fusion=apex, Megatron-LM before 2022): the batched
// GEMMs QKᵀ and PV over the full s x s scores of every local head (causal masking zeroes half of
// them after the fact), at the GEMM model's rate; the softmax and dropout on the scores are
// element-wise ops (elementwise_cost.h). Backward: twice the forward's GEMMs. Packed documents
// give one block per document (AttentionSpan, plan_shape.h).
double UnfusedAttentionSeconds(const CostGraph& d, const PlanShape& p, const Cluster& c) {
  const double span = AttentionSpan(p);
  const double heads = d.heads / p.tp, queries = span / p.cp;
  const double blocks = (p.tokens / queries) * heads;  // (sequence, head) pairs on this GPU
  const Precision pr = p.precision == Precision::kFp8 ? Precision::kBf16 : p.precision;
  return BatchedGemmSeconds(c, pr, blocks, queries, span, d.qk_head_dim) +
         BatchedGemmSeconds(c, pr, blocks, queries, d.v_head_dim, span);
}

// Activations kept for backward (no recompute), FlashAttention (no s x s matrix), no dropout:
// the sum of cost/activation_terms.h's terms. Without FlashAttention the softmax output, the
// dropout mask and the dropout output stay too: 5 bytes per score (Korthikanti et al. 2022's
// 5as/h term).
void Activations(const CostGraph& d, int kind, const PlanShape& p, LayerCost& out) {
  const double tn = p.norm_tokens, h = d.hidden;
  double bytes = ComputeActivationTerms(d, kind, p).Total();
  if (!p.kernels.FlashAttention()) bytes += 5.0 * p.tokens * (d.heads / p.tp) * AttentionSpan(p);
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
    // PyTorch's SDPA runs FlashAttention-2 unless the run states cuDNN; flash-attn called
    // directly is FlashAttention-2 under any profile (kernel_recipe.h).
    // flash-attn's Triton kernel is priced from FlashAttention-2's rate (flash_attn_triton.h).
    const bool fa2 = (p.kernels.Pytorch() && !p.kernels.sdpa_cudnn) || p.kernels.flash_attn2 ||
                     p.kernels.flash_attn_triton;
    // Under a ring, cuDNN's unmasked blocks at their own rate (attention_mask.h).
    attn_fwd =
        RingAttentionSeconds(c, attn.attention_flops, false, attn.attention_shape, fa2, p.cp);
    // FlashAttention backward: 5 GEMM-like products to the forward's 2 (Dao 2023): 2.5x FLOPs.
    attn_bwd =
        RingAttentionSeconds(c, 2.5 * attn.attention_flops, true, attn.attention_shape, fa2, p.cp);
    if (p.kernels.flash_attn_triton) {
      const double triton =
          FlashAttnTritonFactor(attn.attention_shape.seq, attn.attention_shape.head_dim);
      attn_fwd *= triton;
      attn_bwd *= triton;
    }
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
  if (p.recompute == Recompute::kFull) {
    out.recompute_s = out.fwd_s;
    // PyTorch's non-reentrant checkpoint stops at the last saved tensor: a dense layer's last
    // GEMM (MLP down) saves only its input, so its forward is not redone (kernel_recipe.h). An
    // MoE layer stays redone whole (what its combine saves depends on where the routing scores
    // are applied; not read).
    if (p.kernels.recompute_early_stop && !(kind & 1)) out.recompute_s -= mlp.row_gemm_s;
  }
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
  LayerCommunication(d, kind, p, links, c, TpBlock{attn.gemm_s, attn.row_gemm_s},
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
