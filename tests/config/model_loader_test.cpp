#include "config/model_loader.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "config/resolve.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

ModelSpec ModelFromText(const std::string& text) {
  const YamlDocument doc = ParseYamlText(text, "m.yaml");
  return ReadModel(doc.Root(), "fallback");
}

const char* kDenseYaml =
    "layers: 4\nhidden: 512\nheads: 8\nffn_hidden: 2048\nvocab: 1000\nseq_len: 128\n"
    "activation: gelu\n";

TEST_CASE("model loader fills documented defaults", "[config]") {
  const ModelSpec m = ModelFromText(kDenseYaml);
  CHECK(m.name == "fallback");
  CHECK(m.kv_heads == 8);
  CHECK(m.head_dim == 64);
  CHECK(m.attention_kind == AttentionKind::kMha);
  CHECK(m.norm == Norm::kLayerNorm);
  CHECK(m.position == Position::kLearned);
  CHECK_FALSE(m.tied_embeddings);
  CHECK(m.mtp_layers == 0);
  CHECK_FALSE(m.IsMoe());
  const ModelSpec g = ModelFromText(std::string(kDenseYaml) + "kv_heads: 2\n" + "name: x\n");
  CHECK(g.attention_kind == AttentionKind::kGqa);
  CHECK(g.name == "x");
}

TEST_CASE("model loader rejects bad shapes with their location", "[config]") {
  CHECK(ErrorOf([] { ModelFromText("layers: 0\nhidden: 5\n"); }) ==
        "m.yaml:1:9: layers: must be > 0, got 0");
  CHECK_THAT(
      ErrorOf([] {
        ModelFromText(
            "layers: 2\nhidden: 500\nheads: 7\nffn_hidden: 8\nvocab: 9\n"
            "seq_len: 8\nactivation: gelu\n");
      }),
      Contains("m.yaml:3:8: heads: hidden (500) is not divisible by heads (7); give head_dim"));
  CHECK_THAT(ErrorOf([] { ModelFromText(std::string(kDenseYaml) + "kv_heads: 3\n"); }),
             Contains("kv_heads: must divide heads (8), got 3"));
  CHECK_THAT(
      ErrorOf([] { ModelFromText(std::string(kDenseYaml) + "moe: {experts: 4, top_k: 5}\n"); }),
      Contains("moe.top_k: must be <= experts (4), got 5"));
  CHECK_THAT(ErrorOf([] { ModelFromText(std::string(kDenseYaml) + "vocab_size: 3\n"); }),
             Contains("unknown key 'vocab_size'"));
  CHECK_THAT(ErrorOf([] { ModelFromText(std::string(kDenseYaml) + "norm: batchnorm\n"); }),
             Contains("'batchnorm' is not one of: layernorm, rmsnorm"));
  CHECK_THAT(ErrorOf([] { ModelFromText("layers: 2\nhidden: 8\n"); }),
             Contains("missing required key 'heads'"));
  CHECK_THAT(ErrorOf([] {
               ModelFromText(std::string(kDenseYaml) + "attention: {kv_lora_rank: 8, kind: gqa}\n");
             }),
             Contains("attention.kv_lora_rank: only valid with kind: mla"));
  CHECK_THAT(ErrorOf([] {
               ModelFromText(std::string(kDenseYaml) + "kv_heads: 2\nattention: {kind: mha}\n");
             }),
             Contains("mha needs kv_heads == heads"));
  CHECK_THAT(
      ErrorOf([] {
        ModelFromText(std::string(kDenseYaml) + "moe: {experts: 4, top_k: 1, dense_layers: 4}\n");
      }),
      Contains("moe.dense_layers: must be < layers (4)"));
  CHECK_THAT(ErrorOf([] {
               ModelFromText(std::string(kDenseYaml) +
                             "moe: {experts: 8, top_k: 2, groups: 3, group_topk: 1}\n");
             }),
             Contains("moe.groups: must divide experts (8), got 3"));
  CHECK_THAT(ErrorOf([] {
               ModelFromText(std::string(kDenseYaml) +
                             "moe: {experts: 8, top_k: 4, groups: 4, group_topk: 1}\n");
             }),
             Contains("moe.group_topk: its groups hold 2 experts, fewer than top_k (4)"));
  CHECK_THAT(ErrorOf([] {
               ModelFromText(std::string(kDenseYaml) + "moe: {experts: 8, top_k: 2, groups: 4}\n");
             }),
             Contains("missing required key 'group_topk'"));
}

TEST_CASE("model loader reads MoE, MLA and sliding windows", "[config]") {
  const ModelSpec m = ModelFromText(
      std::string(kDenseYaml) +
      "attention: {kind: mla, kv_lora_rank: 64, qk_nope_head_dim: 32, qk_rope_head_dim: 16, "
      "v_head_dim: 32}\nmoe: {experts: 8, top_k: 2, shared_experts: 1, expert_ffn_hidden: 256, "
      "dense_layers: 1, every: 2, capacity_factor: 1.25}\n");
  CHECK(m.attention_kind == AttentionKind::kMla);
  CHECK(m.mla.q_lora_rank == 0);
  CHECK(m.head_dim == 48);
  REQUIRE(m.IsMoe());
  CHECK(m.moe->capacity_factor == Approx(1.25));
  CHECK(m.moe->groups == 0);
  CHECK(m.IsMoeLayer(1));
  CHECK_FALSE(m.IsMoeLayer(2));
  const ModelSpec w = ModelFromText(std::string(kDenseYaml) +
                                    "attention: {sliding_window: 128, sliding_window_every: 2}\n");
  CHECK(w.IsSlidingLayer(0));
  CHECK_FALSE(w.IsSlidingLayer(1));
}

TEST_CASE("every shipped model loads by name", "[config]") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath("models"))) {
    if (entry.path().extension() != ".yaml") continue;
    const ModelSpec m = LoadModel(entry.path().stem().string());
    CHECK(m.name == entry.path().stem().string());
    ++count;
  }
  CHECK(count >= 10);
  const ModelSpec v3 = LoadModel("deepseek-v3");
  CHECK(v3.attention_kind == AttentionKind::kMla);
  CHECK(v3.mtp_layers == 1);
  CHECK(v3.moe->experts == 256);
  CHECK(v3.moe->top_k == 8);
  CHECK(v3.moe->dense_layers == 3);
  const ModelSpec oss = LoadModel("gpt-oss-120b");
  CHECK(oss.sliding_window == 128);
  CHECK(oss.sliding_window_every == 2);
}

TEST_CASE("model names resolve with suggestions, paths work too", "[config]") {
  CHECK_THAT(ErrorOf([] { LoadModel("llama3-70"); }), Contains("did you mean 'llama3-70b'?"));
  CHECK(LoadModel(testing::SourcePath("models/llama3-8b.yaml")).layers == 32);
}

TEST_CASE("model overrides apply before validation", "[config]") {
  const ModelSpec m = LoadModel("llama3-70b", {ParseOverrideFlag("model.seq_len=32768")});
  CHECK(m.seq_len == 32768);
  CHECK(ErrorOf([] { LoadModel("llama3-70b", {ParseOverrideFlag("model.layers=-3")}); }) ==
        "--set: model.layers: must be > 0, got -3");
  CHECK_THAT(ErrorOf([] { LoadModel("llama3-70b", {ParseOverrideFlag("model.seq_lne=5")}); }),
             Contains("--set: model.seq_lne: unknown key 'seq_lne' (did you mean 'seq_len'?)"));
  CHECK_THAT(ErrorOf([] { ParseOverrideFlag("seq_len=5"); }),
             Contains("starts with model. or cluster."));
  CHECK_THAT(ErrorOf([] { ParseOverrideFlag("model.seq_len"); }), Contains("expected PATH=VALUE"));
}

}  // namespace
}  // namespace paraplan
