#include "config/hf_import.h"

#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

ModelSpec Hf(const std::string& family) {
  return LoadModel(testing::SourcePath("tests/data/config/hf/" + family + "/config.json"));
}

TEST_CASE("HF import: Llama 3", "[config]") {
  const ModelSpec m = Hf("llama3-8b");
  CHECK(m.name == "llama3-8b");
  CHECK(m.layers == 32);
  CHECK(m.hidden == 4096);
  CHECK(m.heads == 32);
  CHECK(m.kv_heads == 8);
  CHECK(m.head_dim == 128);
  CHECK(m.ffn_hidden == 14336);
  CHECK(m.vocab == 128256);
  CHECK(m.seq_len == 8192);
  CHECK(m.activation == Activation::kSwiglu);
  CHECK(m.norm == Norm::kRmsNorm);
  CHECK(m.attention_kind == AttentionKind::kGqa);
  CHECK_FALSE(m.IsMoe());
}

TEST_CASE("HF import: Mistral sliding window and Mixtral experts", "[config]") {
  const ModelSpec mistral = Hf("mistral-7b");
  CHECK(mistral.sliding_window == 4096);
  CHECK(mistral.sliding_window_every == 1);
  const ModelSpec mixtral = Hf("mixtral-8x7b");
  CHECK(mixtral.sliding_window == 0);
  REQUIRE(mixtral.IsMoe());
  CHECK(mixtral.moe->experts == 8);
  CHECK(mixtral.moe->top_k == 2);
  CHECK(mixtral.moe->expert_ffn_hidden == 14336);
  CHECK(mixtral.seq_len == 8192);
}

TEST_CASE("HF import: Qwen2 and Qwen3 dense", "[config]") {
  const ModelSpec q2 = Hf("qwen2-7b");
  CHECK(q2.heads == 28);
  CHECK(q2.kv_heads == 4);
  CHECK(q2.head_dim == 128);
  CHECK(q2.sliding_window == 0);  // use_sliding_window: false
  const ModelSpec q3 = Hf("qwen3-8b");
  CHECK(q3.head_dim == 128);
  CHECK(q3.layers == 36);
  CHECK(q3.ffn_hidden == 12288);
}

TEST_CASE("HF import: Qwen3-MoE", "[config]") {
  const ModelSpec m = Hf("qwen3-30b-a3b");
  REQUIRE(m.IsMoe());
  CHECK(m.moe->experts == 128);
  CHECK(m.moe->top_k == 8);
  CHECK(m.moe->expert_ffn_hidden == 768);
  CHECK(m.moe->dense_layers == 0);
  CHECK(m.moe->every == 1);
  CHECK(m.head_dim == 128);
  CHECK(m.kv_heads == 4);
}

TEST_CASE("HF import: DeepSeek-V3 and V2-Lite (MLA)", "[config]") {
  const ModelSpec v3 = Hf("deepseek-v3");
  CHECK(v3.attention_kind == AttentionKind::kMla);
  CHECK(v3.mla.q_lora_rank == 1536);
  CHECK(v3.mla.kv_lora_rank == 512);
  CHECK(v3.mla.qk_rope_head_dim == 64);
  CHECK(v3.kv_heads == 128);
  CHECK(v3.mtp_layers == 1);
  REQUIRE(v3.IsMoe());
  CHECK(v3.moe->experts == 256);
  CHECK(v3.moe->shared_experts == 1);
  CHECK(v3.moe->dense_layers == 3);
  CHECK(v3.moe->expert_ffn_hidden == 2048);
  CHECK(v3.ffn_hidden == 18432);
  CHECK(v3.moe->groups == 8);  // n_group, topk_group: node-limited routing
  CHECK(v3.moe->group_topk == 4);
  const ModelSpec lite = Hf("deepseek-v2-lite");
  CHECK(lite.moe->groups == 0);  // n_group 1: not limited
  CHECK(lite.mla.q_lora_rank == 0);
  CHECK(lite.moe->shared_experts == 2);
  CHECK(lite.moe->dense_layers == 1);
  CHECK(lite.moe->top_k == 6);
}

TEST_CASE("HF import: GPT-OSS layer_types become sliding_window_every", "[config]") {
  const ModelSpec m = Hf("gpt-oss-120b");
  CHECK(m.sliding_window == 128);
  CHECK(m.sliding_window_every == 2);
  CHECK(m.IsSlidingLayer(0));
  CHECK_FALSE(m.IsSlidingLayer(35));
  REQUIRE(m.IsMoe());
  CHECK(m.moe->experts == 128);
  CHECK(m.moe->top_k == 4);
  CHECK(m.head_dim == 64);
}

TEST_CASE("HF import: overrides, unknown families and bad fields", "[config]") {
  const std::string path = testing::SourcePath("tests/data/config/hf/llama3-8b/config.json");
  CHECK(LoadModel(path, {ParseOverrideFlag("model.seq_len=2048")}).seq_len == 2048);
  const std::string other = testing::WriteScratch("hf/bert.json", "{\"model_type\": \"bert\"}");
  CHECK_THAT(ErrorOf([&] { LoadModel(other); }),
             Contains("unsupported model_type 'bert' is not one of: llama"));
  const std::string bad = testing::WriteScratch(
      "hf/bad.json",
      "{\"model_type\": \"llama\",\n \"num_hidden_layers\": 0,\n \"hidden_size\": 64,\n"
      " \"num_attention_heads\": 4, \"intermediate_size\": 8, \"vocab_size\": 10}");
  CHECK_THAT(ErrorOf([&] { LoadModel(bad); }), Contains("bad.json:2:23: layers: must be > 0"));
  const std::string truncated = testing::SourcePath("tests/data/config/hf/truncated.json");
  CHECK_THAT(ErrorOf([&] { LoadModel(truncated); }), Contains("not valid YAML/JSON"));
}

}  // namespace
}  // namespace paraplan
