// LayerGraph: the ops of each distinct layer kind of a model (embedding, dense / MoE transformer
// layers with full or sliding-window attention, MTP modules, logits and loss), with GEMM shapes,
// parameters, forward FLOPs and activation traffic per token. Built once per model; every number
// is per token of the layer's input (M = tokens), so costs scale by the tokens a rank processes.
// Formulas and sources: docs/modeling.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "model/model_spec.h"

namespace paraplan {

enum class OpKind {
  kEmbedding,          // token lookup (vocab × hidden); no FLOPs
  kPositionEmbedding,  // learned positions (seq_len × hidden); no FLOPs
  kNorm,               // LayerNorm / RMSNorm (memory-bound)
  kQkvProj,            // fused Q, K, V projection (MHA / GQA)
  kMlaQDownProj,       // MLA q_a: hidden → q_lora_rank
  kMlaQUpProj,         // MLA q_b: q_lora_rank (or hidden) → heads·(nope + rope)
  kMlaKvDownProj,      // MLA kv_a: hidden → kv_lora_rank + rope
  kMlaKvUpProj,        // MLA kv_b: kv_lora_rank → heads·(nope + v)
  kAttnCore,           // softmax(QKᵀ)V, causal (FlashAttention: no s² tensor in memory)
  kOutProj,            // attention output: heads·v → hidden
  kMlpUp,              // dense MLP up (gate + up fused when gated): hidden → (2·)ffn
  kActivation,         // gelu / swiglu / relu on the MLP (or expert) hidden
  kMlpDown,            // dense MLP down: ffn → hidden
  kRouter,             // MoE gate: hidden → experts
  kExpertUp,           // routed experts up (grouped GEMM over `gemm_count` experts)
  kExpertDown,         // routed experts down
  kSharedExpertUp,     // shared experts up (one MLP of width shared·expert_ffn)
  kSharedExpertDown,   // shared experts down
  kResidualAdd,        // residual connection (memory-bound)
  kMtpProj,            // MTP: concat(norm(h), norm(emb)) 2·hidden → hidden
  kLogits,             // output head: hidden → vocab (weights shared when tied / in MTP)
  kLoss,               // softmax cross-entropy over the vocabulary (memory-bound)
};
inline constexpr size_t kOpKindCount = 22;
const char* ToString(OpKind kind);

// How tensor parallelism splits an op (Megatron-LM).
enum class TpSplit {
  kReplicated,  // every TP rank holds and runs the whole op (norms, router, MLA down projections)
  kColumn,      // weight split along N (output): no communication by itself
  kRow,         // weight split along K (input): followed by all-reduce / reduce-scatter
  kHeads,       // attention core: heads split across TP ranks
  kVocab,       // embedding / logits / loss split along the vocabulary
};
const char* ToString(TpSplit split);

// Where an op's parameters are counted in breakdowns (model show, memory).
enum class ParamGroup {
  kAttention,
  kMlp,
  kMoeExperts,
  kSharedExperts,
  kRouter,
  kNorm,
  kEmbedding,
  kLogits,
  kMtpProj,
};
inline constexpr size_t kParamGroupCount = 9;
const char* ToString(ParamGroup group);
ParamGroup GroupOf(OpKind kind);

struct Op {
  OpKind kind = OpKind::kNorm;
  TpSplit tp = TpSplit::kReplicated;
  bool expert = false;  // routed-expert op: weights sharded ep (× etp) ways, tokens all-to-all
  // GEMM y[M×N] = x[M×K] · Wᵀ[K×N]; n = k = 0 for non-GEMM ops.
  int64_t n = 0;
  int64_t k = 0;
  int64_t gemm_count = 1;    // weight matrices of this shape (routed experts: all experts)
  double m_per_token = 1.0;  // GEMM rows per layer token for each matrix (experts: top_k/experts)
  double params = 0;         // unique weights (0 when shared: tied head, MTP head)
  double active_params = 0;  // weights one token uses (experts: top_k of them)
  // Forward FLOPs per token; for kAttnCore the s-dependent part is separate (below).
  double fwd_flops_per_token = 0;
  // kAttnCore only: forward FLOPs per token per attended (context) token, QKᵀ + AV, all heads,
  // and the sliding window (0 = full causal attention).
  double attn_flops_per_context = 0;
  int64_t window = 0;
  // Activation elements read and written per token in the forward pass (weights excluded);
  // multiply by the activation dtype size for bytes.
  double read_elems_per_token = 0;
  double write_elems_per_token = 0;

  bool IsGemm() const { return n > 0 && k > 0; }
  // Forward FLOPs per token at sequence length seq (attention core included).
  double FwdFlopsPerToken(int64_t seq) const;
};

// The distinct kinds of layer; transformer layers come in four variants.
enum class LayerKind {
  kEmbedding,
  kDense,         // attention + dense MLP
  kDenseSliding,  // sliding-window attention + dense MLP
  kMoe,           // attention + MoE
  kMoeSliding,    // sliding-window attention + MoE
  kMtp,           // one multi-token-prediction module (projection + layer + shared head)
  kLogits,        // final norm + output head + loss
};
inline constexpr size_t kLayerKindCount = 7;
const char* ToString(LayerKind kind);

// Aggregates over one layer of a kind, for fast costing.
struct LayerSummary {
  double params = 0;
  double active_params = 0;
  double replicated_params = 0;  // TP-replicated (norms, router, MLA down projections)
  double tp_split_params = 0;    // split by tp (column / row / vocab)
  double expert_params = 0;      // routed experts: split by ep × etp
  std::array<double, kParamGroupCount> params_by_group{};  // indexed by ParamGroup
  // Forward FLOPs per token excluding the attention core (GEMMs of active weights).
  double fwd_flops_no_attn_per_token = 0;
  double attn_flops_per_context = 0;  // see Op::attn_flops_per_context; 0 when no attention
  int64_t window = 0;
  double read_elems_per_token = 0;
  double write_elems_per_token = 0;

  double AttnCoreFwdFlopsPerToken(int64_t seq) const;
  double FwdFlopsPerToken(int64_t seq) const;
};

struct LayerBlock {
  LayerKind kind = LayerKind::kEmbedding;
  int64_t count = 0;  // how many such layers the model has (0 = absent)
  std::vector<Op> ops;
  LayerSummary summary;
};

struct LayerGraph {
  std::array<LayerBlock, kLayerKindCount> blocks;  // indexed by LayerKind

  const LayerBlock& Block(LayerKind kind) const { return blocks[static_cast<size_t>(kind)]; }
  bool Has(LayerKind kind) const { return Block(kind).count > 0; }
};

// Builds the graph; throws InputError when the spec is inconsistent (zero sizes, heads not a
// multiple of kv_heads, top_k > experts, MLA without ranks). kv_heads = 0 and head_dim = 0 mean
// the defaults (heads, hidden / heads).
LayerGraph BuildLayerGraph(const ModelSpec& model);

// The ops of one transformer layer of `kind` (kDense, kDenseSliding, kMoe, kMoeSliding; kMoe*
// needs a MoE model), as BuildLayerGraph puts them in that block, also when the model has no
// layer of that kind. Not validated: the cost model's compact summary (cost/cost_graph.h) reads
// its parameter counts here.
std::vector<Op> TransformerLayerOps(const ModelSpec& model, LayerKind kind);

// The kind of transformer layer i (0-based, i < layers).
LayerKind KindOfLayer(const ModelSpec& model, int64_t layer);

// Mean attended context per token for causal attention over seq tokens with a sliding window
// (0 = none): seq/2 without a window (the MFU convention), w − w²/(2·seq) with one.
double CausalContextPerToken(int64_t seq, int64_t window);

}  // namespace paraplan
