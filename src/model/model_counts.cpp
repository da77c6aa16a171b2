#include "model/model_counts.h"

namespace paraplan {

ModelCounts CountModel(const ModelSpec& model, int64_t seq_len) {
  return CountModel(model, BuildLayerGraph(model), seq_len);
}

ModelCounts CountModel(const ModelSpec& model, const LayerGraph& graph, int64_t seq_len) {
  ModelCounts c;
  c.seq_len = seq_len > 0 ? seq_len : model.seq_len;
  for (const LayerBlock& b : graph.blocks) {
    if (b.count == 0) continue;
    const double n = static_cast<double>(b.count);
    const size_t kind = static_cast<size_t>(b.kind);
    c.params_by_layer_kind[kind] = n * b.summary.params;
    c.fwd_flops_by_layer_kind[kind] = n * b.summary.FwdFlopsPerToken(c.seq_len);
    c.fwd_flops_per_token += c.fwd_flops_by_layer_kind[kind];
    c.attn_core_fwd_flops_per_token += n * b.summary.AttnCoreFwdFlopsPerToken(c.seq_len);
    if (b.kind == LayerKind::kMtp) {
      c.params_mtp += n * b.summary.params;
      continue;
    }
    c.params_total += n * b.summary.params;
    c.params_active += n * b.summary.active_params;
    for (size_t g = 0; g < kParamGroupCount; ++g) {
      c.params_by_group[g] += n * b.summary.params_by_group[g];
    }
    for (const Op& op : b.ops) {
      c.params_active_by_group[static_cast<size_t>(GroupOf(op.kind))] += n * op.active_params;
      c.fwd_flops_by_group[static_cast<size_t>(GroupOf(op.kind))] +=
          n * op.FwdFlopsPerToken(c.seq_len);
    }
  }
  c.params_embedding = graph.Block(LayerKind::kEmbedding).summary.params;
  c.params_active_no_embedding = c.params_active - c.params_embedding;
  c.params_total_with_mtp = c.params_total + c.params_mtp;
  c.model_flops_per_token = 3.0 * c.fwd_flops_per_token;  // backward = 2 × forward
  return c;
}

// Narayanan et al. 2021, eq. 3 (divided by B·s).
double NarayananFlopsPerToken(int64_t layers, int64_t hidden, int64_t seq, int64_t vocab) {
  const double l = static_cast<double>(layers);
  const double h = static_cast<double>(hidden);
  const double s = static_cast<double>(seq);
  const double v = static_cast<double>(vocab);
  return 96.0 * l * h * h * (1.0 + s / (6.0 * h) + v / (16.0 * l * h));
}

// Korthikanti et al. 2022, §6 (model FLOPs without recomputation, divided by B·s).
double MegatronModelFlopsPerToken(int64_t layers, int64_t hidden, int64_t seq, int64_t vocab) {
  const double l = static_cast<double>(layers);
  const double h = static_cast<double>(hidden);
  const double s = static_cast<double>(seq);
  const double v = static_cast<double>(vocab);
  return 72.0 * l * h * h * (1.0 + s / (6.0 * h) + v / (12.0 * l * h));
}

// Kaplan et al. 2020, Table 1 and §2.1: C_forward = 2N + 2·n_layer·n_ctx·d_attn; training ≈ 3×.
double KaplanFlopsPerToken(double non_embedding_params, int64_t layers, int64_t seq,
                           int64_t d_attn) {
  return 6.0 * non_embedding_params +
         6.0 * static_cast<double>(layers) * static_cast<double>(seq) * static_cast<double>(d_attn);
}

// Chowdhery et al. 2022, Appendix B.
double PalmModelFlopsPerToken(double params, int64_t layers, int64_t heads, int64_t head_dim,
                              int64_t seq) {
  return 6.0 * params + 12.0 * static_cast<double>(layers) * static_cast<double>(heads) *
                            static_cast<double>(head_dim) * static_cast<double>(seq);
}

}  // namespace paraplan
