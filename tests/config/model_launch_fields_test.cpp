// The model fields the launch exports carry (docs/formats.md: linear_bias, qkv_bias,
// rotary_base, norm_epsilon, dropout, moe.router_score, moe.expert_bias): defaults, the shipped
// models, Hugging Face config.json and errors.
#include <catch2/catch.hpp>

#include "config/model_loader.h"
#include "config/resolve.h"
#include "config/yaml_reader.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

ModelSpec LaunchModelFromText(const std::string& text) {
  const YamlDocument doc = ParseYamlText(text, "m.yaml");
  return ReadModel(doc.Root(), "fallback");
}

const std::string kLaunchDense =
    "layers: 4\nhidden: 512\nheads: 8\nffn_hidden: 2048\nvocab: 1000\nseq_len: 128\n"
    "activation: swiglu\n";

TEST_CASE("launch fields: documented defaults and explicit values", "[config]") {
  const ModelSpec d = LaunchModelFromText(kLaunchDense);
  CHECK_FALSE(d.linear_bias);
  CHECK_FALSE(d.qkv_bias);
  CHECK(d.rotary_base == 10000);
  CHECK(d.norm_epsilon == 1e-5);
  CHECK(d.dropout == 0);
  const ModelSpec m = LaunchModelFromText(kLaunchDense +
                                          "linear_bias: true\nqkv_bias: true\nrotary_base: 500000\n"
                                          "norm_epsilon: 1.0e-6\ndropout: 0.1\n");
  CHECK(m.linear_bias);
  CHECK(m.qkv_bias);
  CHECK(m.rotary_base == 500000);
  CHECK(m.norm_epsilon == 1e-6);
  CHECK(m.dropout == 0.1);
  const ModelSpec moe =
      LaunchModelFromText(kLaunchDense +
                          "moe:\n  experts: 8\n  top_k: 2\n  router_score: sigmoid\n"
                          "  expert_bias: true\n");
  CHECK(moe.moe->router_score == RouterScore::kSigmoid);
  CHECK(moe.moe->expert_bias);
  CHECK(LaunchModelFromText(kLaunchDense + "moe:\n  experts: 8\n  top_k: 2\n").moe->router_score ==
        RouterScore::kSoftmax);
}

TEST_CASE("launch fields: errors name the key", "[config]") {
  CHECK_THAT(ErrorOf([] { LaunchModelFromText(kLaunchDense + "dropout: 1.5\n"); }),
             Contains("dropout") && Contains("[0, 1)"));
  CHECK_THAT(ErrorOf([] { LaunchModelFromText(kLaunchDense + "norm_epsilon: 0\n"); }),
             Contains("norm_epsilon"));
  CHECK_THAT(
      ErrorOf([] {
        LaunchModelFromText(kLaunchDense + "moe:\n  experts: 8\n  top_k: 2\n  expert_bias: true\n");
      }),
      Contains("expert_bias") && Contains("sigmoid"));
  CHECK_THAT(
      ErrorOf([] {
        LaunchModelFromText(kLaunchDense + "moe:\n  experts: 8\n  top_k: 2\n  router_score: x\n");
      }),
      Contains("router_score"));
  CHECK_THAT(ErrorOf([] {
               LaunchModelFromText(
                   "layers: 4\nhidden: 512\nheads: 8\nffn_hidden: 2048\nvocab: 1000\nseq_len: 128\n"
                   "activation: gelu\nrotary_base: 10000\n");
             }),
             Contains("rotary_base") && Contains("rope"));
}

TEST_CASE("launch fields: the shipped models say what their configs say", "[config]") {
  CHECK(LoadModel("llama3-70b").rotary_base == 500000);
  CHECK_FALSE(LoadModel("llama3-70b").linear_bias);
  CHECK(LoadModel("qwen3-30b-a3b").norm_epsilon == 1e-6);
  CHECK(LoadModel("gpt3-175b").linear_bias);
  CHECK(LoadModel("gpt-oss-120b").linear_bias);
  const ModelSpec v3 = LoadModel("deepseek-v3");
  CHECK(v3.moe->router_score == RouterScore::kSigmoid);
  CHECK(v3.moe->expert_bias);
  CHECK(v3.norm_epsilon == 1e-6);
}

TEST_CASE("launch fields: read from Hugging Face config.json", "[config]") {
  const auto hf = [](const std::string& family) {
    return LoadModel(testing::SourcePath("tests/data/config/hf/" + family + "/config.json"));
  };
  const ModelSpec llama = hf("llama3-8b");
  CHECK(llama.rotary_base == 500000);
  CHECK(llama.norm_epsilon == 1e-5);
  CHECK_FALSE(llama.linear_bias);
  CHECK(hf("qwen2-7b").qkv_bias);
  CHECK_FALSE(hf("qwen2-7b").linear_bias);
  CHECK(hf("gpt-oss-120b").linear_bias);
  CHECK(hf("gpt-oss-120b").rotary_base == 150000);
  const ModelSpec v3 = hf("deepseek-v3");
  CHECK(v3.moe->router_score == RouterScore::kSigmoid);
  CHECK(v3.moe->expert_bias);
  CHECK(v3.norm_epsilon == 1e-6);
}

}  // namespace
}  // namespace paraplan
