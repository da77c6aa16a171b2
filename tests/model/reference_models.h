// Published model shapes built in code (no YAML), for the model-arithmetic tests. Each cites the
// source of its shape; the published parameter counts the tests compare against are in the tests.
#pragma once

#include "model/model_spec.h"

namespace paraplan::testing {

inline ModelSpec Dense(const char* name, int64_t layers, int64_t hidden, int64_t heads,
                       int64_t kv_heads, int64_t ffn, int64_t vocab) {
  ModelSpec m;
  m.name = name;
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = kv_heads;
  m.head_dim = hidden / heads;
  m.ffn_hidden = ffn;
  m.vocab = vocab;
  m.seq_len = 8192;
  m.activation = Activation::kSwiglu;
  m.norm = Norm::kRmsNorm;
  m.position = Position::kRope;
  m.attention_kind = kv_heads == heads ? AttentionKind::kMha : AttentionKind::kGqa;
  return m;
}

// Brown et al. 2020, Table 2.1 (GPT-3 175B).
inline ModelSpec Gpt3() {
  ModelSpec m = Dense("gpt3-175b", 96, 12288, 96, 96, 49152, 50257);
  m.seq_len = 2048;
  m.activation = Activation::kGelu;
  m.norm = Norm::kLayerNorm;
  m.position = Position::kLearned;
  m.tied_embeddings = true;
  return m;
}

// meta-llama/Meta-Llama-3-8B, -70B and Llama-3.1-405B config.json.
inline ModelSpec Llama3_8b() {
  return Dense("llama3-8b", 32, 4096, 32, 8, 14336, 128256);
}
inline ModelSpec Llama3_70b() {
  return Dense("llama3-70b", 80, 8192, 64, 8, 28672, 128256);
}
inline ModelSpec Llama31_405b() {
  return Dense("llama3.1-405b", 126, 16384, 128, 8, 53248, 128256);
}

// mistralai/Mixtral-8x7B-v0.1 config.json.
inline ModelSpec Mixtral8x7b() {
  ModelSpec m = Dense("mixtral-8x7b", 32, 4096, 32, 8, 14336, 32000);
  m.seq_len = 4096;
  m.moe = MoeSpec{8, 2, 0, 14336, 0, 1, std::nullopt};
  return m;
}

// deepseek-ai/DeepSeek-V3 config.json; DeepSeek-V3 technical report §2.
inline ModelSpec DeepSeekV3() {
  ModelSpec m = Dense("deepseek-v3", 61, 7168, 128, 128, 18432, 129280);
  m.seq_len = 4096;
  m.head_dim = 128;
  m.attention_kind = AttentionKind::kMla;
  m.mla = MlaSpec{1536, 512, 128, 64, 128};
  m.moe = MoeSpec{256, 8, 1, 2048, 3, 1, std::nullopt, 8, 4};
  m.mtp_layers = 1;
  return m;
}

// Qwen/Qwen3-235B-A22B config.json.
inline ModelSpec Qwen3_235b() {
  ModelSpec m = Dense("qwen3-235b-a22b", 94, 4096, 64, 4, 12288, 151936);
  m.seq_len = 4096;
  m.head_dim = 128;
  m.moe = MoeSpec{128, 8, 0, 1536, 0, 1, std::nullopt};
  return m;
}

// openai/gpt-oss-120b config.json: alternating 128-token sliding-window and full attention.
inline ModelSpec GptOss120b() {
  ModelSpec m = Dense("gpt-oss-120b", 36, 2880, 64, 8, 2880, 201088);
  m.seq_len = 4096;
  m.head_dim = 64;
  m.moe = MoeSpec{128, 4, 0, 2880, 0, 1, std::nullopt};
  m.sliding_window = 128;
  m.sliding_window_every = 2;
  return m;
}

}  // namespace paraplan::testing
