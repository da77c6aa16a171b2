#include "report/megatron_model_flags.h"

#include <cmath>
#include <cstdint>

#include "core/format.h"

namespace paraplan {

namespace {

using Flags = std::vector<std::string>;

void AttentionFlags(const ModelSpec& m, Flags& flags) {
  AddMegatronFlag(flags, "--num-attention-heads", m.heads);
  if (m.attention_kind == AttentionKind::kMla) {
    flags.push_back("--multi-latent-attention");
    if (m.mla.q_lora_rank > 0) AddMegatronFlag(flags, "--q-lora-rank", m.mla.q_lora_rank);
    AddMegatronFlag(flags, "--kv-lora-rank", m.mla.kv_lora_rank);
    AddMegatronFlag(flags, "--qk-head-dim", m.mla.qk_nope_head_dim);
    AddMegatronFlag(flags, "--qk-pos-emb-head-dim", m.mla.qk_rope_head_dim);
    AddMegatronFlag(flags, "--v-head-dim", m.mla.v_head_dim);
    return;
  }
  AddMegatronFlag(flags, "--kv-channels", m.head_dim);
  if (m.kv_heads != m.heads) {
    flags.push_back("--group-query-attention");
    AddMegatronFlag(flags, "--num-query-groups", m.kv_heads);
  }
  if (m.sliding_window > 0) {
    flags.push_back("--window-size " + std::to_string(m.sliding_window) + ",0");
    // N: N-1 window layers then one full layer; paraplan's "every 2" is window, full, window, ...
    if (m.sliding_window_every == 2) AddMegatronFlag(flags, "--window-attn-skip-freq", 2);
  }
}

void LayerFlags(const ModelSpec& m, Flags& flags) {
  if (m.activation == Activation::kSwiglu) flags.push_back("--swiglu");
  if (m.activation == Activation::kSquaredRelu) flags.push_back("--squared-relu");
  flags.push_back(std::string("--normalization ") +
                  (m.norm == Norm::kRmsNorm ? "RMSNorm" : "LayerNorm"));
  flags.push_back(std::string("--position-embedding-type ") +
                  (m.position == Position::kRope ? "rope" : "learned_absolute"));
  if (!m.tied_embeddings) flags.push_back("--untie-embeddings-and-output-weights");
  // Megatron-LM adds a bias to every linear layer and dropout 0.1 unless told otherwise
  // (arguments.py: --add-bias-linear, --hidden-dropout, --attention-dropout defaults).
  if (!m.linear_bias) flags.push_back("--disable-bias-linear");
  if (m.qkv_bias && !m.linear_bias) flags.push_back("--add-qkv-bias");
  if (m.position == Position::kRope) {
    // --rotary-base is an integer argument (arguments.py: type=int).
    AddMegatronFlag(flags, "--rotary-base", static_cast<int64_t>(std::llround(m.rotary_base)));
  }
  flags.push_back("--norm-epsilon " + FormatShortest(m.norm_epsilon));
  flags.push_back("--hidden-dropout " + FormatShortest(m.dropout));
  flags.push_back("--attention-dropout " + FormatShortest(m.dropout));
}

void MoeFlags(const ModelSpec& m, Flags& flags) {
  if (!m.IsMoe()) return;
  const MoeSpec& moe = *m.moe;
  AddMegatronFlag(flags, "--num-experts", moe.experts);
  AddMegatronFlag(flags, "--moe-router-topk", moe.top_k);
  AddMegatronFlag(flags, "--moe-ffn-hidden-size", moe.expert_ffn_hidden);
  if (moe.shared_experts > 0) {
    AddMegatronFlag(flags, "--moe-shared-expert-intermediate-size",
                    moe.shared_experts * moe.expert_ffn_hidden);
  }
  if (moe.dense_layers > 0 || moe.every > 1) {
    flags.push_back("--moe-layer-freq \"" + MegatronMoeLayerFreq(m) + "\"");
  }
  if (moe.groups > 1) {
    AddMegatronFlag(flags, "--moe-router-num-groups", moe.groups);
    AddMegatronFlag(flags, "--moe-router-group-topk", moe.group_topk);
  }
  if (moe.router_score == RouterScore::kSigmoid) {
    flags.push_back("--moe-router-score-function sigmoid");
  }
  if (moe.expert_bias) flags.push_back("--moe-router-enable-expert-bias");
  flags.push_back("--moe-grouped-gemm");
}

}  // namespace

void AddMegatronFlag(std::vector<std::string>& flags, const std::string& name, int64_t value) {
  flags.push_back(name + " " + std::to_string(value));
}

std::string MegatronMoeLayerFreq(const ModelSpec& m) {
  if (m.moe && m.moe->every == 1) {
    const int64_t dense = m.moe->dense_layers;
    const std::string moe_part = "[1]*" + std::to_string(m.layers - dense);
    return dense > 0 ? "([0]*" + std::to_string(dense) + "+" + moe_part + ")" : moe_part;
  }
  std::string list = "[";
  for (int64_t i = 0; i < m.layers; ++i) {
    list += (i ? "," : "") + std::string(m.IsMoeLayer(i) ? "1" : "0");
  }
  return list + "]";
}

Flags MegatronModelFlags(const ModelSpec& m, int64_t seq_len) {
  Flags flags;
  AddMegatronFlag(flags, "--num-layers", m.layers);
  AddMegatronFlag(flags, "--hidden-size", m.hidden);
  AddMegatronFlag(flags, "--ffn-hidden-size", m.ffn_hidden);
  AttentionFlags(m, flags);
  LayerFlags(m, flags);
  MoeFlags(m, flags);
  if (m.mtp_layers > 0) AddMegatronFlag(flags, "--mtp-num-layers", m.mtp_layers);
  AddMegatronFlag(flags, "--vocab-size", m.vocab);
  AddMegatronFlag(flags, "--seq-length", seq_len);
  AddMegatronFlag(flags, "--max-position-embeddings", seq_len);
  return flags;
}

}  // namespace paraplan
