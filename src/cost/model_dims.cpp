#include "cost/model_dims.h"

#include <algorithm>
#include <vector>

#include "model/layer_graph.h"

namespace paraplan {
namespace {

double D(int64_t v) {
  return static_cast<double>(v);
}

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

}  // namespace

ModelDims BuildModelDims(const ModelSpec& m) {
  ModelDims d;
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
    d.expert_ffn = D(m.moe->expert_ffn_hidden);
    const LayerParams moe = ParamsOf(TransformerLayerOps(m, LayerKind::kMoe));
    d.moe_expert_params = moe.mlp_expert;
    d.moe_other_params = moe.mlp;
  }
  d.embedding_params = d.vocab * d.hidden;
  d.prefix.assign(static_cast<size_t>(std::max<int64_t>(m.layers, 0)) + 1, {});
  for (int64_t i = 0; i < m.layers; ++i) {
    d.prefix[i + 1] = d.prefix[i];
    ++d.prefix[i + 1][LayerKindOf(m, i)];
  }
  return d;
}

double AttentionCoreFlopsPerToken(const ModelDims& d, int kind, int64_t seq) {
  // Causal: a token attends on average to seq/2 keys; a sliding window caps that.
  double context = D(seq) / 2.0;
  if ((kind & 2) && d.window > 0) context = std::min(context, d.window);
  return 2.0 * context * d.heads * (d.qk_head_dim + d.v_head_dim);
}

double ForwardFlopsPerToken(const ModelDims& d, int64_t seq) {
  double flops = 0;
  const int64_t n = d.layers;
  for (int k = 0; k < kLayerKinds; ++k) {
    const double count = d.prefix[n][k];
    if (count == 0) continue;
    double gemm_params = d.attn_params;
    if (k & 1) {
      const double active_experts = d.top_k + d.shared_experts;
      gemm_params +=
          active_experts * (d.gate + 1.0) * d.hidden * d.expert_ffn + d.hidden * d.experts;
    } else {
      gemm_params += d.dense_mlp_params;
    }
    flops += count * (2.0 * gemm_params + AttentionCoreFlopsPerToken(d, k, seq));
  }
  return flops + 2.0 * d.embedding_params;  // logits
}

double TotalParams(const ModelDims& d) {
  double p = 0;
  const int64_t n = d.layers;
  for (int k = 0; k < kLayerKinds; ++k) {
    const double mlp = (k & 1) ? d.moe_expert_params + d.moe_other_params : d.dense_mlp_params;
    p += d.prefix[n][k] * (d.attn_params + mlp);
  }
  return p + d.embedding_params * (d.tied_embeddings ? 1.0 : 2.0);
}

}  // namespace paraplan
