// ModelSpec: a transformer as described by models/*.yaml (schema in docs/formats.md).
// Plain data; loaders fill it (src/config), pure functions count it (src/model).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace paraplan {

enum class Activation { kGelu, kSwiglu, kSquaredRelu, kRelu };
enum class Norm { kLayerNorm, kRmsNorm };
enum class Position { kRope, kLearned, kAlibi };
enum class AttentionKind { kMha, kGqa, kMla };
// How the router turns expert logits into scores (Megatron-Core --moe-router-score-function).
enum class RouterScore { kSoftmax, kSigmoid };

// Multi-head latent attention (DeepSeek-V2/V3). q_lora_rank = 0 means queries are projected
// directly (DeepSeek-V2-Lite style).
struct MlaSpec {
  int64_t q_lora_rank = 0;
  int64_t kv_lora_rank = 0;
  int64_t qk_nope_head_dim = 0;
  int64_t qk_rope_head_dim = 0;
  int64_t v_head_dim = 0;
};

struct MoeSpec {
  int64_t experts = 0;
  int64_t top_k = 0;
  int64_t shared_experts = 0;
  int64_t expert_ffn_hidden = 0;
  int64_t dense_layers = 0;               // the first N layers are dense
  int64_t every = 1;                      // after those, an MoE layer every N layers
  std::optional<double> capacity_factor;  // empty = dropless
  // Group-limited routing (DeepSeek-V2/V3's n_group / topk_group; Megatron-Core's
  // --moe-router-num-groups / --moe-router-group-topk): the experts split into `groups` groups,
  // each token's top_k chosen within its best `group_topk` groups. 0 = not limited.
  int64_t groups = 0;
  int64_t group_topk = 0;
  RouterScore router_score = RouterScore::kSoftmax;  // HF scoring_func
  // Auxiliary-loss-free balancing: a per-expert bias added to the scores for the top-k choice
  // (DeepSeek-V3's e_score_correction_bias, HF topk_method noaux_tc).
  bool expert_bias = false;
};

// The model file's key for its training sequence length (models/*.yaml, `model show`). The plan
// knob of the same spelling (plan/knob_table.h) overrides the value per run; this names the
// model's own field, which model files, the Hugging Face import and `model show` write.
inline constexpr const char* kModelSeqLenKey = "seq_len";

struct ModelSpec {
  std::string name;
  int64_t layers = 0;
  int64_t hidden = 0;
  int64_t heads = 0;
  int64_t kv_heads = 0;  // == heads for MHA
  int64_t head_dim = 0;  // hidden / heads unless given
  int64_t ffn_hidden = 0;
  int64_t vocab = 0;
  int64_t seq_len = 0;
  Activation activation = Activation::kGelu;
  Norm norm = Norm::kLayerNorm;
  Position position = Position::kLearned;
  bool tied_embeddings = false;
  int64_t mtp_layers = 0;
  // Fields the launch exports carry so that the framework builds this model (docs/formats.md).
  // The cost model does not read them: it counts no bias parameters and no dropout masks.
  bool linear_bias = false;    // a bias on every linear layer (GPT-3; Megatron's default)
  bool qkv_bias = false;       // a bias on the Q/K/V projection only (Qwen2)
  double rotary_base = 10000;  // RoPE theta (HF rope_theta)
  double norm_epsilon = 1e-5;  // HF rms_norm_eps / layer_norm_epsilon
  double dropout = 0;          // hidden and attention dropout

  AttentionKind attention_kind = AttentionKind::kMha;
  MlaSpec mla;                       // meaningful when attention_kind == kMla
  int64_t sliding_window = 0;        // 0 = full attention everywhere
  int64_t sliding_window_every = 1;  // every N-th layer uses the window (1 = all)

  std::optional<MoeSpec> moe;

  bool IsMoe() const { return moe.has_value() && moe->experts > 0; }
  // Whether layer i (0-based) is an MoE layer.
  bool IsMoeLayer(int64_t layer) const {
    if (!IsMoe() || layer < moe->dense_layers) return false;
    return (layer - moe->dense_layers) % moe->every == 0;
  }
  // Whether layer i uses the sliding window.
  bool IsSlidingLayer(int64_t layer) const {
    return sliding_window > 0 && layer % sliding_window_every == 0;
  }
};

}  // namespace paraplan
