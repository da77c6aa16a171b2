#include "cost/cost_graph.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <vector>

#include "core/as_double.h"
#include "model/layer_graph.h"

namespace paraplan {
namespace {

// One transformer layer's weights read off its layer-graph ops: the attention half (up to the
// first residual add, with its norm; `attn_replicated`: the TP-replicated ops — norms, MLA down
// projections) and the MLP half (with its norm; `mlp_expert`: the routed experts).
struct LayerParams {
  double attn = 0, attn_replicated = 0, mlp = 0, mlp_expert = 0;
};

LayerParams ParamsOf(const std::vector<Op>& ops) {
  LayerParams p;
  bool in_mlp = false;
  for (const Op& op : ops) {
    if (op.kind == OpKind::kResidualAdd) {
      in_mlp = true;
    } else if (!in_mlp) {
      p.attn += op.params;
      if (op.tp == TpSplit::kReplicated) p.attn_replicated += op.params;
    } else if (op.expert) {
      p.mlp_expert += op.params;
    } else {
      p.mlp += op.params;
    }
  }
  return p;
}

// explain's name of a GEMM op (nullptr: not a GEMM the layer cost walks).
const char* GemmName(OpKind kind) {
  switch (kind) {
    case OpKind::kQkvProj:
      return "qkv proj";
    case OpKind::kMlaQDownProj:
      return "q down proj";
    case OpKind::kMlaQUpProj:
      return "q up proj";
    case OpKind::kMlaKvDownProj:
      return "kv down proj";
    case OpKind::kMlaKvUpProj:
      return "kv up proj";
    case OpKind::kOutProj:
      return "out proj";
    case OpKind::kMlpUp:
      return "mlp up";
    case OpKind::kMlpDown:
      return "mlp down";
    case OpKind::kRouter:
      return "router";
    case OpKind::kExpertUp:
      return "experts up";
    case OpKind::kExpertDown:
      return "experts down";
    case OpKind::kSharedExpertUp:
      return "shared up";
    case OpKind::kSharedExpertDown:
      return "shared down";
    default:
      return nullptr;
  }
}

// The GEMMs of one transformer layer's ops, with the attention's split width per head.
LayerGemms CompileGemms(const std::vector<Op>& ops, double heads, double kv_heads) {
  LayerGemms out;
  bool in_mlp = false;
  for (const Op& op : ops) {
    if (op.kind == OpKind::kResidualAdd) in_mlp = true;
    if (op.kind == OpKind::kAttnCore) out.attn_flops_per_context = op.attn_flops_per_context;
    const char* name = GemmName(op.kind);
    if (!op.IsGemm() || name == nullptr) continue;
    if (out.size >= out.ops.size())
      throw std::logic_error("layer has more GEMMs than kMaxLayerGemms");
    LayerGemm& g = out.ops[out.size++];
    g.name = name;
    g.split = op.tp == TpSplit::kColumn ? GemmSplit::kColumn
              : op.tp == TpSplit::kRow  ? GemmSplit::kRow
                                        : GemmSplit::kReplicated;
    g.qkv = op.kind == OpKind::kQkvProj;
    g.expert = op.expert;
    g.mlp_block = in_mlp;
    g.n = D(op.n);
    g.k = D(op.k);
    g.count = D(op.gemm_count);
    g.active = std::round(op.m_per_token * g.count);
    g.fwd_flops_per_token = op.fwd_flops_per_token;
    if (g.qkv) {
      g.head_width = g.n / (heads + 2 * kv_heads);  // N = (heads + 2·kv_heads) × head_dim
    } else if (!in_mlp && op.tp == TpSplit::kColumn) {
      g.head_width = g.n / heads;
    } else if (!in_mlp && op.tp == TpSplit::kRow) {
      g.head_width = g.k / heads;
    }
  }
  return out;
}

}  // namespace

CostGraph BuildCostGraph(const ModelSpec& m) {
  CostGraph d;
  d.hidden = D(m.hidden);
  d.heads = D(m.heads);
  d.kv_heads = D(m.kv_heads > 0 ? m.kv_heads : m.heads);
  const double head_dim = D(m.head_dim > 0 ? m.head_dim : (m.heads > 0 ? m.hidden / m.heads : 0));
  d.mla = m.attention_kind == AttentionKind::kMla;
  if (d.mla) {
    d.qk_head_dim = D(m.mla.qk_nope_head_dim + m.mla.qk_rope_head_dim);
    d.v_head_dim = D(m.mla.v_head_dim);
    d.q_lora = D(m.mla.q_lora_rank);
    d.kv_lora = D(m.mla.kv_lora_rank);
    d.rope_dim = D(m.mla.qk_rope_head_dim);
    d.kv_heads = d.heads;
  } else {
    d.qk_head_dim = head_dim;
    d.v_head_dim = head_dim;
  }
  d.ffn = D(m.ffn_hidden);
  d.gate = m.activation == Activation::kSwiglu ? 2.0 : 1.0;
  d.vocab = D(m.vocab);
  d.window = D(m.sliding_window);
  d.tied_embeddings = m.tied_embeddings;
  d.rope = m.position == Position::kRope;
  d.act_squared_relu = m.activation == Activation::kSquaredRelu;
  d.layers = m.layers;
  d.seq_len = m.seq_len;
  d.mtp_layers = m.mtp_layers;
  d.mtp_kind = LayerKindOf(m, m.layers);
  const LayerParams dense = ParamsOf(TransformerLayerOps(m, LayerKind::kDense));
  d.attn_params = dense.attn;
  d.attn_params_replicated = dense.attn_replicated;
  d.dense_mlp_params = dense.mlp;
  if (m.IsMoe()) {
    d.experts = D(m.moe->experts);
    d.top_k = D(m.moe->top_k);
    d.shared_experts = D(m.moe->shared_experts);
    d.router_groups = D(m.moe->groups);
    d.router_group_topk = D(m.moe->group_topk);
    d.expert_ffn = D(m.moe->expert_ffn_hidden);
    const LayerParams moe = ParamsOf(TransformerLayerOps(m, LayerKind::kMoe));
    d.moe_expert_params = moe.mlp_expert;
    d.moe_other_params = moe.mlp;
  }
  for (int kind = 0; kind < kLayerKinds; ++kind) {
    if ((kind & 1) && !m.IsMoe()) continue;
    const LayerKind lk = (kind & 1) ? ((kind & 2) ? LayerKind::kMoeSliding : LayerKind::kMoe)
                                    : ((kind & 2) ? LayerKind::kDenseSliding : LayerKind::kDense);
    d.gemms[static_cast<size_t>(kind)] =
        CompileGemms(TransformerLayerOps(m, lk), d.heads, d.kv_heads);
  }
  d.embedding_params = d.vocab * d.hidden;
  d.prefix.assign(static_cast<size_t>(std::max<int64_t>(m.layers, 0)) + 1, {});
  for (int64_t i = 0; i < m.layers; ++i) {
    d.prefix[i + 1] = d.prefix[i];
    ++d.prefix[i + 1][LayerKindOf(m, i)];
  }
  return d;
}

double AttentionCoreFlopsPerToken(const CostGraph& d, int kind, int64_t seq) {
  // Causal: a token attends on average to seq/2 keys; a sliding window caps that.
  double context = D(seq) / 2.0;
  if ((kind & 2) && d.window > 0) context = std::min(context, d.window);
  return d.gemms[static_cast<size_t>(kind)].attn_flops_per_context * context;
}

double ForwardFlopsPerToken(const CostGraph& d, int64_t seq) {
  double flops = 0;
  const int64_t n = d.layers;
  for (int k = 0; k < kLayerKinds; ++k) {
    const double count = d.prefix[n][k];
    if (count == 0) continue;
    const LayerGemms& gemms = d.gemms[static_cast<size_t>(k)];
    double gemm_flops = 0;  // the graph's GEMMs of active weights (LayerSummary's no-attn FLOPs)
    for (size_t i = 0; i < gemms.size; ++i) gemm_flops += gemms.ops[i].fwd_flops_per_token;
    flops += count * (gemm_flops + AttentionCoreFlopsPerToken(d, k, seq));
  }
  return flops + 2.0 * d.embedding_params;  // logits
}

double TotalParams(const CostGraph& d) {
  double p = 0;
  const int64_t n = d.layers;
  for (int k = 0; k < kLayerKinds; ++k) {
    const double mlp = (k & 1) ? d.moe_expert_params + d.moe_other_params : d.dense_mlp_params;
    p += d.prefix[n][k] * (d.attn_params + mlp);
  }
  return p + d.embedding_params * (d.tied_embeddings ? 1.0 : 2.0);
}

}  // namespace paraplan
