// CostGraph: the layer graph (model/layer_graph.h) compiled for the cost model: each layer kind's
// GEMM ops, parameter counts per layer kind, the widths the element-wise and memory terms read,
// and which layers are of which kind. Built once per StepModel, so the ~1 µs estimate reads the
// graph `model show` prints without walking it: the parameter counts are the graph's ops summed,
// and the GEMMs per layer kind are the graph's ops, which the layer cost (cost/layer_cost.cpp)
// walks.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "model/model_spec.h"

namespace paraplan {

// Layer kinds: bit 0 = MoE MLP, bit 1 = sliding-window attention.
inline constexpr int kLayerKinds = 4;
inline int LayerKindOf(const ModelSpec& m, int64_t layer) {
  return (m.IsMoeLayer(layer) ? 1 : 0) | (m.IsSlidingLayer(layer) ? 2 : 0);
}

// One GEMM op of a transformer layer, compiled from the layer graph's op (model/layer_graph.h)
// for the estimate's hot path: ComputeLayerCost (cost/layer_cost.cpp) applies the plan's split
// rules to it. Shapes are the whole op's (no parallelism); `count` weight matrices of n × k, each
// multiplied by m_per_token·tokens rows.
enum class GemmSplit {
  kReplicated,  // TpSplit::kReplicated: unsplit (router, MLA down projections)
  kColumn,      // TpSplit::kColumn: N split
  kRow,         // TpSplit::kRow: K split
};

struct LayerGemm {
  const char* name = "";  // explain's row name
  GemmSplit split = GemmSplit::kReplicated;
  bool qkv = false;        // fused QKV: its K and V heads replicate when tp > kv_heads
  bool expert = false;     // routed experts: split by ep (matrices) and etp (ffn width)
  bool mlp_block = false;  // after the attention's residual add (TP overlap hides per block)
  double n = 0, k = 0;
  double count = 1;       // gemm_count
  double active = 1;      // matrices one token uses (routed experts: top_k)
  double head_width = 0;  // attention column / row ops: the split dimension is heads × this
  double fwd_flops_per_token = 0;  // the graph's (2·N·K per active matrix)
};

// A transformer layer kind's GEMMs in the graph's order (attention block, then MLP block).
inline constexpr size_t kMaxLayerGemms = 12;
struct LayerGemms {
  std::array<LayerGemm, kMaxLayerGemms> ops{};
  size_t size = 0;
  double attn_flops_per_context = 0;  // the attention core's (Op::attn_flops_per_context)
};

struct CostGraph {
  double hidden = 0;
  double heads = 0, kv_heads = 0;
  double qk_head_dim = 0, v_head_dim = 0;  // per head
  bool mla = false;
  double q_lora = 0, kv_lora = 0, rope_dim = 0;  // MLA latent widths
  double ffn = 0;
  double gate = 1;  // 2 for gated activations (SwiGLU): the up projection is twice as wide
  double experts = 0, top_k = 0, shared_experts = 0, expert_ffn = 0;
  double router_groups = 0, router_group_topk = 0;  // group-limited routing; 0 = not limited
  double vocab = 0;
  double window = 0;  // sliding window (tokens)
  bool tied_embeddings = false;
  bool rope = false;  // rotary position embedding applied to q and k in every layer
  bool act_squared_relu = false;
  int64_t layers = 0;
  int64_t seq_len = 0;
  int64_t mtp_layers = 0;  // multi-token-prediction modules (each one layer + projection + head)
  int mtp_kind = 0;        // the layer kind of an MTP module's layer (that of layer index `layers`)

  // Parameters per layer: attention (incl. its norm) and MLP (incl. its norm). MoE layers split
  // the MLP into expert parameters (all experts) and the rest (router + shared experts).
  double attn_params = 0;
  double attn_params_replicated = 0;  // MLA down-projections and norms: not split by tp
  double dense_mlp_params = 0;
  double moe_expert_params = 0;
  double moe_other_params = 0;
  double embedding_params = 0;  // vocab x hidden (the output layer has as many when untied)

  // The GEMMs of each layer kind (LayerKindOf), read off TransformerLayerOps.
  std::array<LayerGemms, kLayerKinds> gemms{};

  // prefix[i][k]: layers of kind k among the first i layers.
  std::vector<std::array<int32_t, kLayerKinds>> prefix;
};

CostGraph BuildCostGraph(const ModelSpec& model);

// Layers of each kind in [begin, end).
inline std::array<int32_t, kLayerKinds> KindCounts(const CostGraph& d, int64_t begin, int64_t end) {
  std::array<int32_t, kLayerKinds> out{};
  for (int k = 0; k < kLayerKinds; ++k) out[k] = d.prefix[end][k] - d.prefix[begin][k];
  return out;
}

// Model FLOPs per token for one forward pass at sequence length `seq` (causal attention, the
// Megatron-LM formula family): the layer graph's GEMMs (`gemms`, 2 FLOPs per multiply-add of
// the weights a token uses), the attention core and the logits; no MTP modules.
double ForwardFlopsPerToken(const CostGraph& d, int64_t seq);

// Attention-core forward FLOPs per token of one layer of kind `kind` at sequence `seq`: the
// graph's FLOPs per attended token × the MFU convention's context, seq/2 causal and
// min(window, seq/2) for sliding layers (CausalContextPerToken's exact w − w²/2s is `model
// show`'s; the cost model keeps the convention it is validated with).
double AttentionCoreFlopsPerToken(const CostGraph& d, int kind, int64_t seq);

// Total parameters (for reports and tests).
double TotalParams(const CostGraph& d);

}  // namespace paraplan
