// End-to-end: the published plans with their published memory recipes (issue 17).
#include <catch2/catch.hpp>
#include <string>

#include "cli_runner.h"

using Catch::Matchers::Contains;
using paraplan::testing::RunParaplan;

namespace {

// DeepSeek-V3 report, Sec. 3.2: 2,048 H800, pp=16 DualPipe, ep=64 over 8 nodes, no TP, ZeRO-1;
// 4096-token sequences, batch 15360 (Sec. 4.2); FP8 (Sec. 3.3); RMSNorm and MLA up-projections
// recomputed, Linear inputs cached in FP8, bf16 Adam moments (Secs. 3.2.3, 3.3.3).
const char* const kDeepSeekPlan =
    "tp=1,pp=16,ep=64,schedule=dualpipe,zero=1,micro_batch=1,global_batch=15360,seq_len=4096,"
    "precision=fp8";
const char* const kDeepSeekRecipe =
    ",recompute_modules=layernorm+mla_up_proj,fp8_act_cache=true,optimizer_moments=bf16";

double JsonNumber(const std::string& json, const std::string& key) {
  const size_t at = json.find("\"" + key + "\": ");
  REQUIRE(at != std::string::npos);
  return std::stod(json.substr(at + key.size() + 4));
}

}  // namespace

TEST_CASE("Llama 3 405B's 8,192-GPU plan fits on 80 GB H100 with its sharding", "[cli][memory]") {
  // Llama 3 paper, Sec. 3.3.2 and Table 4: tp=8, pp=16, dp=64, seq 8192, 16M tokens per batch;
  // optimizer state and gradients sharded, weights not resharded after forward (zero=2).
  const auto r =
      RunParaplan({"simulate", "-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "8192", "--plan",
                   "tp=8,pp=16,dp=64,micro_batch=1,global_batch=2048,seq_len=8192,"
                   "sequence_parallel=true,zero=2",
                   "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("\"fits\": true"));
  const double peak = JsonNumber(r.out, "memory_GiB");
  CHECK(peak < 80);
  CHECK(peak > 60);  // the margin is real, not an empty model
}

TEST_CASE("DeepSeek-V3's recipe cuts its plan's memory, what is left is stated", "[cli][memory]") {
  const auto plain = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                  "--plan", kDeepSeekPlan, "--format", "json"});
  const auto recipe =
      RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                   std::string(kDeepSeekPlan) + kDeepSeekRecipe, "--format", "json"});
  INFO(recipe.err);
  REQUIRE(plain.code == 0);
  REQUIRE(recipe.code == 0);
  CHECK_THAT(recipe.out, Contains("\"recompute_modules\": \"layernorm+mla_up_proj\""));
  CHECK_THAT(recipe.out, Contains("\"optimizer_moments\": \"bf16\""));
  const double before = JsonNumber(plain.out, "memory_GiB");
  const double after = JsonNumber(recipe.out, "memory_GiB");
  CHECK(after < 0.6 * before);
}

TEST_CASE("DeepSeek-V3's published recipe fits in 80 GB with its EMA in CPU memory",
          "[cli][memory]") {
  // Sec. 3.3.3: "the EMA parameters are stored in CPU memory"; on the GPU the fp32 EMA of a
  // rank's optimizer shard is one more term of each stage's memory. (Whether it would still fit
  // depends on the layer layout, which is balanced by time: with the two-hop dispatch's cheaper
  // EP communication it does, by a few GiB; DeepSeek did not need to find out.)
  auto run = [](const char* ema) {
    return RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                        std::string(kDeepSeekPlan) + kDeepSeekRecipe + ",ema=" + ema, "--format",
                        "json"});
  };
  const auto cpu = run("cpu");
  const auto gpu = run("gpu");
  INFO(cpu.err);
  REQUIRE(cpu.code == 0);
  REQUIRE(gpu.code == 0);
  CHECK_THAT(cpu.out, Contains("\"fits\": true"));
  CHECK_THAT(cpu.out, Contains("\"ema\": \"cpu\""));
  CHECK_THAT(cpu.out, Contains("\"logits_GiB\""));
  const double on_cpu = JsonNumber(cpu.out, "memory_GiB");
  const double on_gpu = JsonNumber(gpu.out, "memory_GiB");
  CHECK(on_cpu < 80);
  CHECK(on_cpu > 60);  // a real margin, not an empty model
  // The same layout, the EMA added on the GPU: stage 0 (embedding and MTP) peaks in both, and
  // grows by its EMA term.
  const double ema = JsonNumber(gpu.out, "ema_GiB");  // stage 0's
  REQUIRE(JsonNumber(gpu.out, "total_GiB") == Approx(on_gpu));
  REQUIRE(JsonNumber(cpu.out, "total_GiB") == Approx(on_cpu));
  CHECK(ema > 0.5);
  CHECK(on_gpu - on_cpu == Approx(ema).margin(1e-6));
  // explain states the margin and the "other" memory by term.
  const auto text =
      RunParaplan({"explain", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                   std::string(kDeepSeekPlan) + kDeepSeekRecipe + ",ema=cpu"});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Contains("fits: yes"));
  CHECK_THAT(text.out, Contains("GiB, margin "));
  CHECK_THAT(text.out, Contains("Other memory per stage (GiB)"));
  CHECK_THAT(text.out, Contains("fragmentation"));
}

TEST_CASE("Megatron-LM's recipe flags work as plan knobs", "[cli][memory]") {
  const auto r =
      RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                   std::string(kDeepSeekPlan) +
                       ",recompute_module=layernorm+mla_up_proj,fp8_activation_cache=true,"
                       "exp_avg_dtype=bf16,weights_ema=cpu",
                   "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK_THAT(r.out, Contains("\"fits\": true"));
  CHECK_THAT(r.out, Contains("ema=cpu"));  // the re-run string uses paraplan's names
  const auto bad = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                "--plan", std::string(kDeepSeekPlan) + ",exp_avg_dtype=fp16"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("exp_avg_dtype"));
  const auto top8 = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                 "--plan", std::string(kDeepSeekPlan) + ",moe_probs=input"});
  CHECK(top8.code == 2);
  CHECK_THAT(top8.err, Contains("top-1"));
}

TEST_CASE("memory recipe knobs reject bad values", "[cli][memory]") {
  const auto r = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                              "--plan", std::string(kDeepSeekPlan) + ",recompute_modules=attn"});
  CHECK(r.code == 2);
  CHECK_THAT(r.err, Contains("core_attn"));
  const auto m = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                              "--plan", std::string(kDeepSeekPlan) + ",optimizer_moments=fp8"});
  CHECK(m.code == 2);
  CHECK_THAT(m.err, Contains("bf16"));
}
