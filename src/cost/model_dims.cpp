#include "cost/model_dims.h"

#include <algorithm>

namespace paraplan {
namespace {

double D(int64_t v) {
  return static_cast<double>(v);
}

void FillAttention(const ModelSpec& m, ModelDims& d) {
  const double h = d.hidden;
  const double norm = m.norm == Norm::kLayerNorm ? 2 * h : h;
  if (d.mla) {
    const double qk = d.qk_head_dim;
    const double q_in = d.q_lora > 0 ? d.q_lora : h;
    const double q_down = d.q_lora > 0 ? h * d.q_lora + d.q_lora : 0;  // + its norm
    const double kv_down = h * (d.kv_lora + d.rope_dim) + d.kv_lora;
    const double q_up = q_in * d.heads * qk;
    const double kv_up = d.kv_lora * d.heads * ((qk - d.rope_dim) + d.v_head_dim);
    const double out = d.heads * d.v_head_dim * h;
    d.attn_params_replicated = q_down + kv_down + norm;
    d.attn_params = d.attn_params_replicated + q_up + kv_up + out;
    return;
  }
  const double q = d.heads * d.qk_head_dim, kv = d.kv_heads * d.qk_head_dim;
  d.attn_params_replicated = norm;
  d.attn_params = h * (q + 2 * kv) + q * h + norm;
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
  d.layers = m.layers;
  d.seq_len = m.seq_len;
  d.mtp_layers = m.mtp_layers;
  d.mtp_kind = LayerKindOf(m, m.layers);
  FillAttention(m, d);
  const double h = d.hidden;
  const double norm = m.norm == Norm::kLayerNorm ? 2 * h : h;
  d.dense_mlp_params = (d.gate + 1.0) * h * d.ffn + norm;
  if (m.IsMoe()) {
    d.experts = D(m.moe->experts);
    d.top_k = D(m.moe->top_k);
    d.shared_experts = D(m.moe->shared_experts);
    d.expert_ffn = D(m.moe->expert_ffn_hidden);
    d.moe_expert_params = d.experts * (d.gate + 1.0) * h * d.expert_ffn;
    d.moe_other_params =
        h * d.experts + d.shared_experts * (d.gate + 1.0) * h * d.expert_ffn + norm;
  }
  d.embedding_params = d.vocab * h;
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
