// Parameter and FLOP counts of a model, from its LayerGraph, plus the published closed-form
// formulas (Kaplan 2020, Narayanan 2021, PaLM 2022) for cross-checking. Pure functions;
// formulas and sources in docs/modeling.md.
#pragma once

#include <array>
#include <cstdint>

#include "model/layer_graph.h"
#include "model/model_spec.h"

namespace paraplan {

struct ModelCounts {
  int64_t seq_len = 0;  // the sequence length the FLOPs are for

  // Parameters. "total" is the main model (the published figure); MTP modules are separate.
  double params_total = 0;
  double params_mtp = 0;             // all MTP modules (embedding and head shared, not counted)
  double params_total_with_mtp = 0;  // what is stored and trained
  double params_active = 0;          // used per token: attention, dense MLP, router, top_k +
                                     // shared experts, norms, embedding and head
  double params_active_no_embedding = 0;  // the same without the input embedding lookup
  double params_embedding = 0;            // token (+ learned position) embedding
  std::array<double, kParamGroupCount> params_by_group{};         // main model, by ParamGroup
  std::array<double, kParamGroupCount> params_active_by_group{};  // main model, by ParamGroup
  std::array<double, kLayerKindCount> params_by_layer_kind{};     // all layers of each kind

  // FLOPs per token (the MFU convention: causal attention counts half the s×s scores).
  double fwd_flops_per_token = 0;            // main model + MTP forward
  double model_flops_per_token = 0;          // training = 3 × forward (forward + 2 × backward)
  double attn_core_fwd_flops_per_token = 0;  // part of fwd_flops_per_token
  std::array<double, kLayerKindCount> fwd_flops_by_layer_kind{};  // all layers of each kind
  std::array<double, kParamGroupCount> fwd_flops_by_group{};      // attention core → kAttention
};

// Counts of a model at seq_len (0 = model.seq_len).
ModelCounts CountModel(const ModelSpec& model, int64_t seq_len = 0);
ModelCounts CountModel(const ModelSpec& model, const LayerGraph& graph, int64_t seq_len = 0);

// Narayanan et al. 2021 (SC'21), eq. 3, per token: 96·l·h²·(1 + s/(6h) + V/(16·l·h)). It counts
// full activation recomputation (4 passes) and full (non-causal) attention.
double NarayananFlopsPerToken(int64_t layers, int64_t hidden, int64_t seq, int64_t vocab);

// The same model without recomputation (Korthikanti et al. 2022, model FLOPs):
// 72·l·h²·(1 + s/(6h) + V/(12·l·h)) per token.
double MegatronModelFlopsPerToken(int64_t layers, int64_t hidden, int64_t seq, int64_t vocab);

// Kaplan et al. 2020, Table 1: C ≈ 6·N + 6·l·s·d_attn per training token, N = non-embedding
// parameters, d_attn = heads · head_dim.
double KaplanFlopsPerToken(double non_embedding_params, int64_t layers, int64_t seq,
                           int64_t d_attn);

// Chowdhery et al. 2022 (PaLM), Appendix B: 6·N + 12·L·H·Q·T per token (model FLOPs, MFU).
double PalmModelFlopsPerToken(double params, int64_t layers, int64_t heads, int64_t head_dim,
                              int64_t seq);

}  // namespace paraplan
