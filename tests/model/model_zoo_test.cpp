// The shipped models/*.yaml, loaded through LoadModel, land on their published counts and agree
// with the same shapes built in code (reference_models.h).
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "config/resolve.h"
#include "model/model_counts.h"
#include "model/reference_models.h"

using namespace paraplan;
using namespace paraplan::testing;

namespace {

constexpr double kB = 1e9;

std::string ModelPath(const std::string& name) {
  return std::string(PARAPLAN_SOURCE_DIR) + "/models/" + name + ".yaml";
}

struct Published {
  const char* name;
  double total;
  double active;  // 0 = not compared
  double active_tolerance = 0.01;
};

}  // namespace

TEST_CASE("shipped model files land within 1% of the published counts", "[model]") {
  const Published cases[] = {
      {"gpt3-175b", 174.6 * kB, 0},
      {"llama3-8b", 8.03 * kB, 0},
      {"llama3-70b", 70.55 * kB, 0},
      {"llama3.1-405b", 405.8 * kB, 0},
      {"mixtral-8x7b", 46.7 * kB, 12.9 * kB},
      {"mixtral-8x22b", 141 * kB, 39 * kB},
      {"deepseek-v3", 671 * kB,
       0},  // Qwen3-30B-A3B counts 3.35B active with embedding and head, published as "3.3B".
      {"qwen3-30b-a3b", 30.5 * kB, 3.3 * kB, 0.02},
      {"qwen3-235b-a22b", 235 * kB, 22 * kB},
      {"gpt-oss-120b", 116.83 * kB, 0},
      // Grok-1: xAI publishes 314B total; its active count only as "25% of the weights".
      {"grok1-314b", 314 * kB, 0},
      // Llama 4 Maverick counts 17.18B active with embedding and head, published as "17B".
      {"llama4-maverick-400b", 400 * kB, 17 * kB, 0.02},
  };
  for (const Published& p : cases) {
    const std::string path = ModelPath(p.name);
    if (!std::filesystem::exists(path)) {
      WARN("skipped: " << path << " does not exist");
      continue;
    }
    const ModelCounts c = CountModel(LoadModel(path));
    INFO(p.name << ": total " << c.params_total / kB << "B, active " << c.params_active / kB
                << "B");
    CHECK(std::abs(c.params_total / p.total - 1) <= 0.01);
    if (p.active > 0) CHECK(std::abs(c.params_active / p.active - 1) <= p.active_tolerance);
    CHECK(c.model_flops_per_token > 6 * c.params_active_no_embedding);
  }
}

TEST_CASE("shipped model files describe the same models as the in-code shapes", "[model]") {
  const ModelSpec in_code[] = {Gpt3(),        Llama3_8b(),  Llama3_70b(), Llama31_405b(),
                               Mixtral8x7b(), DeepSeekV3(), Qwen3_235b(), GptOss120b()};
  for (const ModelSpec& spec : in_code) {
    const std::string path = ModelPath(spec.name);
    if (!std::filesystem::exists(path)) continue;
    const ModelSpec loaded = LoadModel(path);
    const ModelCounts a = CountModel(loaded, spec.seq_len);
    const ModelCounts b = CountModel(spec);
    INFO(spec.name);
    CHECK(a.params_total == Approx(b.params_total).epsilon(1e-9));
    CHECK(a.params_active == Approx(b.params_active).epsilon(1e-9));
    CHECK(a.params_total_with_mtp == Approx(b.params_total_with_mtp).epsilon(1e-9));
    CHECK(a.model_flops_per_token == Approx(b.model_flops_per_token).epsilon(1e-9));
  }
}

TEST_CASE("DeepSeek-V3 file: 685B with MTP and 37B active (rounded down)", "[model]") {
  const std::string path = ModelPath("deepseek-v3");
  if (!std::filesystem::exists(path)) return;
  const ModelCounts c = CountModel(LoadModel(path));
  CHECK(std::abs(c.params_total_with_mtp / (685 * kB) - 1) <= 0.01);
  CHECK(c.params_active >= 37 * kB);
  CHECK(c.params_active < 38 * kB);
}

TEST_CASE("GPT-OSS-120B file: 5.13B active without the input embedding", "[model]") {
  // OpenAI, gpt-oss-120b & gpt-oss-20b model card (Aug 2025), Table 1: 116.83B total, 5.13B
  // active per token (the input embedding not counted, the unembedding counted).
  const std::string path = ModelPath("gpt-oss-120b");
  if (!std::filesystem::exists(path)) return;
  const ModelCounts c = CountModel(LoadModel(path));
  CHECK(std::abs(c.params_active_no_embedding / (5.13 * kB) - 1) <= 0.01);
}

TEST_CASE("GPT-OSS-20B file: 20.91B total, 3.61B active without the input embedding", "[model]") {
  // OpenAI, gpt-oss-120b & gpt-oss-20b model card (Aug 2025), Table 1: 20.91B total, 3.61B
  // active per token (the input embedding not counted, the unembedding counted).
  const std::string path = ModelPath("gpt-oss-20b");
  if (!std::filesystem::exists(path)) return;
  const ModelCounts c = CountModel(LoadModel(path));
  CHECK(std::abs(c.params_total / (20.91 * kB) - 1) <= 0.01);
  CHECK(std::abs(c.params_active_no_embedding / (3.61 * kB) - 1) <= 0.01);
}

TEST_CASE("Kimi K2 file: 1.04T total within 2%, 32B active", "[model]") {
  // Kimi K2 technical report (arXiv 2507.20534): 1.04T total, 32B activated. The file counts
  // 1026.4B (-1.3%: the report does not say what its total counts beyond the config's
  // matrices), so the total is held to 2%, the active count to the published 32B (rounded down).
  const std::string path = ModelPath("kimi-k2");
  if (!std::filesystem::exists(path)) return;
  const ModelCounts c = CountModel(LoadModel(path));
  CHECK(std::abs(c.params_total / (1040 * kB) - 1) <= 0.02);
  CHECK(c.params_active >= 32 * kB);
  CHECK(c.params_active < 33 * kB);
}
