#include "model/layer_graph.h"

#include <algorithm>
#include <string>

#include "core/error.h"

namespace paraplan {

namespace {

// Dimensions resolved once from a ModelSpec (defaults applied).
struct Dims {
  double h = 0;  // hidden
  double heads = 0;
  double kv_heads = 0;
  double head_dim = 0;
  double ffn = 0;
  double vocab = 0;
  bool gated = false;
  double norm_params = 0;  // per norm over the hidden size
};

Dims ResolveDims(const ModelSpec& m) {
  Dims d;
  d.h = static_cast<double>(m.hidden);
  d.heads = static_cast<double>(m.heads);
  d.kv_heads = static_cast<double>(m.kv_heads > 0 ? m.kv_heads : m.heads);
  d.head_dim =
      static_cast<double>(m.head_dim > 0 ? m.head_dim : (m.heads > 0 ? m.hidden / m.heads : 0));
  d.ffn = static_cast<double>(m.ffn_hidden);
  d.vocab = static_cast<double>(m.vocab);
  d.gated = m.activation == Activation::kSwiglu;
  d.norm_params = m.norm == Norm::kLayerNorm ? 2.0 * d.h : d.h;  // LayerNorm has γ and β
  return d;
}

void Validate(const ModelSpec& m) {
  const std::string name = m.name.empty() ? "model" : m.name;
  RequireInput(m.layers > 0, name + ".layers", "must be > 0");
  RequireInput(m.hidden > 0, name + ".hidden", "must be > 0");
  RequireInput(m.heads > 0, name + ".heads", "must be > 0");
  RequireInput(m.vocab > 0, name + ".vocab", "must be > 0");
  RequireInput(m.seq_len >= 0 && m.mtp_layers >= 0, name + ".seq_len", "must be >= 0");
  const int64_t kv = m.kv_heads > 0 ? m.kv_heads : m.heads;
  RequireInput(m.heads % kv == 0, name + ".kv_heads", "must divide heads");
  RequireInput(m.head_dim > 0 || m.hidden % m.heads == 0, name + ".head_dim",
               "hidden must be divisible by heads when head_dim is not given");
  if (m.attention_kind == AttentionKind::kMla) {
    RequireInput(m.mla.kv_lora_rank > 0 && m.mla.qk_nope_head_dim > 0 &&
                     m.mla.qk_rope_head_dim >= 0 && m.mla.v_head_dim > 0,
                 name + ".attention", "MLA needs kv_lora_rank, qk_nope_head_dim, v_head_dim > 0");
  }
  if (m.IsMoe()) {
    RequireInput(m.moe->top_k > 0 && m.moe->top_k <= m.moe->experts, name + ".moe.top_k",
                 "must be in [1, experts]");
    RequireInput(m.moe->expert_ffn_hidden > 0, name + ".moe.expert_ffn_hidden", "must be > 0");
    RequireInput(m.moe->every > 0, name + ".moe.every", "must be > 0");
  }
  const bool any_dense = !m.IsMoe() || m.moe->dense_layers > 0 || m.moe->every > 1;
  RequireInput(!any_dense || m.ffn_hidden > 0, name + ".ffn_hidden", "must be > 0");
}

// A GEMM op: weight n × k, `count` matrices, each token uses `active` of them.
Op Gemm(OpKind kind, TpSplit tp, double n, double k, double count = 1, double active = 1) {
  Op op;
  op.kind = kind;
  op.tp = tp;
  op.n = static_cast<int64_t>(n);
  op.k = static_cast<int64_t>(k);
  op.gemm_count = static_cast<int64_t>(count);
  op.m_per_token = active / count;
  op.params = n * k * count;
  op.active_params = n * k * active;
  op.fwd_flops_per_token = 2.0 * n * k * active;  // 2·M·N·K per GEMM
  op.read_elems_per_token = k * active;
  op.write_elems_per_token = n * active;
  return op;
}

// A memory-bound op reading and writing activations (elements per token).
Op Elementwise(OpKind kind, TpSplit tp, double read, double write, double params = 0) {
  Op op;
  op.kind = kind;
  op.tp = tp;
  op.params = params;
  op.active_params = params;
  op.read_elems_per_token = read;
  op.write_elems_per_token = write;
  return op;
}

Op NormOp(double width, double params) {
  return Elementwise(OpKind::kNorm, TpSplit::kReplicated, width, width, params);
}

// Core attention: reads q, k, v and writes the output (FlashAttention keeps scores on chip).
Op AttnCore(double heads, double qk_dim, double v_dim, double kv_read, int64_t window) {
  Op op;
  op.kind = OpKind::kAttnCore;
  op.tp = TpSplit::kHeads;
  op.attn_flops_per_context = 2.0 * heads * qk_dim + 2.0 * heads * v_dim;  // QKᵀ + AV
  op.window = window;
  op.read_elems_per_token = heads * qk_dim + kv_read;
  op.write_elems_per_token = heads * v_dim;
  return op;
}

void AddGqaAttention(const Dims& d, int64_t window, std::vector<Op>& ops) {
  const double q = d.heads * d.head_dim;
  const double kv = d.kv_heads * d.head_dim;
  ops.push_back(Gemm(OpKind::kQkvProj, TpSplit::kColumn, q + 2.0 * kv, d.h));
  ops.push_back(AttnCore(d.heads, d.head_dim, d.head_dim, 2.0 * kv, window));
  ops.push_back(Gemm(OpKind::kOutProj, TpSplit::kRow, d.h, q));
}

// DeepSeek-V2/V3 multi-head latent attention (DeepSeek-V3 report, §2.1.1).
void AddMlaAttention(const ModelSpec& m, const Dims& d, int64_t window, std::vector<Op>& ops) {
  const MlaSpec& a = m.mla;
  const double qk_dim = static_cast<double>(a.qk_nope_head_dim + a.qk_rope_head_dim);
  const double v_dim = static_cast<double>(a.v_head_dim);
  const double q_lora = static_cast<double>(a.q_lora_rank);
  const double kv_lora = static_cast<double>(a.kv_lora_rank);
  const double rope = static_cast<double>(a.qk_rope_head_dim);
  const double nope = static_cast<double>(a.qk_nope_head_dim);
  if (a.q_lora_rank > 0) {
    ops.push_back(Gemm(OpKind::kMlaQDownProj, TpSplit::kReplicated, q_lora, d.h));
    ops.push_back(NormOp(q_lora, q_lora));
    ops.push_back(Gemm(OpKind::kMlaQUpProj, TpSplit::kColumn, d.heads * qk_dim, q_lora));
  } else {
    ops.push_back(Gemm(OpKind::kMlaQUpProj, TpSplit::kColumn, d.heads * qk_dim, d.h));
  }
  ops.push_back(Gemm(OpKind::kMlaKvDownProj, TpSplit::kReplicated, kv_lora + rope, d.h));
  ops.push_back(NormOp(kv_lora, kv_lora));
  ops.push_back(Gemm(OpKind::kMlaKvUpProj, TpSplit::kColumn, d.heads * (nope + v_dim), kv_lora));
  ops.push_back(AttnCore(d.heads, qk_dim, v_dim, d.heads * (qk_dim + v_dim), window));
  ops.push_back(Gemm(OpKind::kOutProj, TpSplit::kRow, d.h, d.heads * v_dim));
}

// An MLP of width ffn: up (gate + up when gated), activation, down.
void AddMlp(const Dims& d, double ffn, OpKind up, OpKind down, double count, double active,
            bool expert, std::vector<Op>& ops) {
  const double up_n = d.gated ? 2.0 * ffn : ffn;
  const TpSplit col = TpSplit::kColumn;
  const TpSplit row = TpSplit::kRow;
  ops.push_back(Gemm(up, col, up_n, d.h, count, active));
  ops.push_back(Elementwise(OpKind::kActivation, col, up_n * active, ffn * active));
  ops.push_back(Gemm(down, row, d.h, ffn, count, active));
  if (expert) {
    for (size_t i = ops.size() - 3; i < ops.size(); ++i) ops[i].expert = true;
  }
}

void AddMoe(const ModelSpec& m, const Dims& d, std::vector<Op>& ops) {
  const MoeSpec& e = *m.moe;
  const double experts = static_cast<double>(e.experts);
  const double eff = static_cast<double>(e.expert_ffn_hidden);
  ops.push_back(Gemm(OpKind::kRouter, TpSplit::kReplicated, experts, d.h));
  AddMlp(d, eff, OpKind::kExpertUp, OpKind::kExpertDown, experts, static_cast<double>(e.top_k),
         true, ops);
  if (e.shared_experts > 0) {
    const double shared_ffn = eff * static_cast<double>(e.shared_experts);
    AddMlp(d, shared_ffn, OpKind::kSharedExpertUp, OpKind::kSharedExpertDown, 1, 1, false, ops);
  }
}

// One transformer layer: norm, attention, residual, norm, MLP or MoE, residual.
void AddTransformerLayer(const ModelSpec& m, const Dims& d, bool moe, bool sliding,
                         std::vector<Op>& ops) {
  const int64_t window = sliding ? m.sliding_window : 0;
  ops.push_back(NormOp(d.h, d.norm_params));
  if (m.attention_kind == AttentionKind::kMla) {
    AddMlaAttention(m, d, window, ops);
  } else {
    AddGqaAttention(d, window, ops);
  }
  ops.push_back(Elementwise(OpKind::kResidualAdd, TpSplit::kReplicated, 2.0 * d.h, d.h));
  ops.push_back(NormOp(d.h, d.norm_params));
  if (moe) {
    AddMoe(m, d, ops);
  } else {
    AddMlp(d, d.ffn, OpKind::kMlpUp, OpKind::kMlpDown, 1, 1, false, ops);
  }
  ops.push_back(Elementwise(OpKind::kResidualAdd, TpSplit::kReplicated, 2.0 * d.h, d.h));
}

// Final norm, output head (its weights counted only when `own_weights`), cross-entropy loss.
void AddHead(const Dims& d, bool own_weights, std::vector<Op>& ops) {
  ops.push_back(NormOp(d.h, d.norm_params));
  Op logits = Gemm(OpKind::kLogits, TpSplit::kVocab, d.vocab, d.h);
  if (!own_weights) logits.params = logits.active_params = 0;  // shared with the embedding
  ops.push_back(logits);
  ops.push_back(Elementwise(OpKind::kLoss, TpSplit::kVocab, d.vocab, d.vocab));
}

std::vector<Op> EmbeddingOps(const ModelSpec& m, const Dims& d) {
  std::vector<Op> ops;
  Op tok = Elementwise(OpKind::kEmbedding, TpSplit::kVocab, 0, d.h, d.vocab * d.h);
  ops.push_back(tok);
  if (m.position == Position::kLearned) {
    const double positions = static_cast<double>(std::max<int64_t>(m.seq_len, 1));
    ops.push_back(
        Elementwise(OpKind::kPositionEmbedding, TpSplit::kReplicated, 0, d.h, positions * d.h));
  }
  return ops;
}

// DeepSeek-V3 §2.2: RMSNorm on h and on the embedding, projection M ∈ R^{d×2d}, one
// transformer block, and the shared output head.
std::vector<Op> MtpOps(const ModelSpec& m, const Dims& d) {
  std::vector<Op> ops;
  ops.push_back(NormOp(d.h, d.norm_params));
  ops.push_back(NormOp(d.h, d.norm_params));
  ops.push_back(Gemm(OpKind::kMtpProj, TpSplit::kColumn, d.h, 2.0 * d.h));
  const LayerKind last = KindOfLayer(m, m.layers - 1);
  const bool moe = last == LayerKind::kMoe || last == LayerKind::kMoeSliding;
  AddTransformerLayer(m, d, moe, false, ops);
  AddHead(d, false, ops);
  return ops;
}

LayerSummary Summarize(const std::vector<Op>& ops) {
  LayerSummary s;
  for (const Op& op : ops) {
    s.params += op.params;
    s.active_params += op.active_params;
    if (op.expert) {
      s.expert_params += op.params;
    } else if (op.tp == TpSplit::kReplicated) {
      s.replicated_params += op.params;
    } else {
      s.tp_split_params += op.params;
    }
    s.params_by_group[static_cast<size_t>(GroupOf(op.kind))] += op.params;
    s.fwd_flops_no_attn_per_token += op.fwd_flops_per_token;
    s.attn_flops_per_context += op.attn_flops_per_context;
    if (op.kind == OpKind::kAttnCore) s.window = op.window;
    s.read_elems_per_token += op.read_elems_per_token;
    s.write_elems_per_token += op.write_elems_per_token;
  }
  return s;
}

}  // namespace

double CausalContextPerToken(int64_t seq, int64_t window) {
  const double s = static_cast<double>(seq);
  if (window <= 0 || window >= seq) return s / 2.0;
  const double w = static_cast<double>(window);
  return w - w * w / (2.0 * s);  // tokens i < w see i, the rest see w
}

double Op::FwdFlopsPerToken(int64_t seq) const {
  return fwd_flops_per_token + attn_flops_per_context * CausalContextPerToken(seq, window);
}

double LayerSummary::AttnCoreFwdFlopsPerToken(int64_t seq) const {
  return attn_flops_per_context * CausalContextPerToken(seq, window);
}

double LayerSummary::FwdFlopsPerToken(int64_t seq) const {
  return fwd_flops_no_attn_per_token + AttnCoreFwdFlopsPerToken(seq);
}

std::vector<Op> TransformerLayerOps(const ModelSpec& model, LayerKind kind) {
  const bool moe = kind == LayerKind::kMoe || kind == LayerKind::kMoeSliding;
  const bool sliding = kind == LayerKind::kDenseSliding || kind == LayerKind::kMoeSliding;
  std::vector<Op> ops;
  AddTransformerLayer(model, ResolveDims(model), moe, sliding, ops);
  return ops;
}

LayerKind KindOfLayer(const ModelSpec& model, int64_t layer) {
  const bool moe = model.IsMoeLayer(layer);
  const bool sliding = model.IsSlidingLayer(layer);
  if (moe) return sliding ? LayerKind::kMoeSliding : LayerKind::kMoe;
  return sliding ? LayerKind::kDenseSliding : LayerKind::kDense;
}

LayerGraph BuildLayerGraph(const ModelSpec& model) {
  Validate(model);
  const Dims d = ResolveDims(model);
  LayerGraph graph;
  for (size_t i = 0; i < kLayerKindCount; ++i) graph.blocks[i].kind = static_cast<LayerKind>(i);
  auto block = [&graph](LayerKind kind) -> LayerBlock& {
    return graph.blocks[static_cast<size_t>(kind)];
  };
  for (int64_t i = 0; i < model.layers; ++i) ++block(KindOfLayer(model, i)).count;
  for (LayerKind kind :
       {LayerKind::kDense, LayerKind::kDenseSliding, LayerKind::kMoe, LayerKind::kMoeSliding}) {
    LayerBlock& b = block(kind);
    if (b.count == 0) continue;
    b.ops = TransformerLayerOps(model, kind);
  }
  block(LayerKind::kEmbedding).count = 1;
  block(LayerKind::kEmbedding).ops = EmbeddingOps(model, d);
  block(LayerKind::kLogits).count = 1;
  AddHead(d, !model.tied_embeddings, block(LayerKind::kLogits).ops);
  if (model.mtp_layers > 0) {
    block(LayerKind::kMtp).count = model.mtp_layers;
    block(LayerKind::kMtp).ops = MtpOps(model, d);
  }
  for (LayerBlock& b : graph.blocks) b.summary = Summarize(b.ops);
  return graph;
}

}  // namespace paraplan
