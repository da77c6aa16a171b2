// `explain` on a plan that does not fit: the nearest plan that fits, structured advice, and no
// suggestion that needs more memory.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

const std::vector<std::string> kTooBig = {
    "explain", "-m",       "llama3-70b",
    "-c",      "dgx-h100", "-g",
    "64",      "--plan",   "tp=8,pp=1,micro_batch=1,global_batch=64,recompute=none,zero=0"};

// The plan string of the nearest fit in explain's text output.
std::string NearestPlan(const std::string& out) {
  const std::string marker = "--plan \"";
  const size_t begin = out.find(marker, out.find("nearest plan that fits")) + marker.size();
  return out.substr(begin, out.find('"', begin) - begin);
}

// explain for Llama-3 8B on 8 H100s with `plan`.
std::vector<std::string> ExplainLlama8b(const std::string& plan) {
  return {"explain", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--plan", plan};
}

TEST_CASE("explain finds the nearest plan that fits", "[cli]") {
  const auto run = RunParaplan(kTooBig);
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("fits: NO"));
  CHECK_THAT(run.out, Catch::Contains("nearest plan that fits ("));
  CHECK_THAT(run.out, !Catch::Contains("a larger micro_batch"));
  // The plan it names re-runs and fits.
  const std::string plan = NearestPlan(run.out);
  const auto check = RunParaplan({"simulate", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64",
                                  "--plan", plan, "--format", "json"});
  INFO(plan);
  REQUIRE(check.code == 0);
  CHECK_THAT(check.out, Catch::Contains("\"fits\": true"));
}

TEST_CASE("explain's nearest fit keeps the framework's kernels and recipe and the layer split",
          "[cli]") {
  // torchtitan eager with FP8-cached inputs: only the micro-batch needs to change.
  auto run = RunParaplan(ExplainLlama8b(
      "tp=1,pp=1,dp=8,micro_batch=4,global_batch=32,recompute=none,zero=3,fusion=eager,"
      "fp8_act_cache=true"));
  REQUIRE(run.code == 0);
  const std::string plan = NearestPlan(run.out);
  CHECK_THAT(plan, Catch::Contains("fusion=eager"));
  CHECK_THAT(plan, Catch::Contains("fp8_act_cache=true"));
  // A given split stays while a plan that keeps pp fits (24 GiB: tp 4 with pp 2)...
  std::vector<std::string> split = ExplainLlama8b(
      "tp=1,pp=2,dp=4,micro_batch=1,global_batch=8,recompute=none,zero=0,pp_layers=15/17");
  split.emplace_back("--set");
  std::vector<std::string> args = split;
  args.emplace_back("cluster.gpu.memory_GiB=24");
  run = RunParaplan(args);
  REQUIRE(run.code == 0);
  CHECK_THAT(NearestPlan(run.out), Catch::Contains("pp_layers=15/17"));
  CHECK_THAT(run.out, !Catch::Contains("layer split"));
  // ...and is left to the balancer, as a named change, when none does (20 GiB).
  args = split;
  args.emplace_back("cluster.gpu.memory_GiB=20");
  run = RunParaplan(args);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("layer split: as given -> balanced"));
  CHECK_THAT(NearestPlan(run.out), !Catch::Contains("pp_layers"));
}

TEST_CASE("explain --format json gives advice as a list", "[cli]") {
  std::vector<std::string> args = kTooBig;
  args.insert(args.end(), {"--format", "json"});
  const auto run = RunParaplan(args);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("\"advice_items\""));
  CHECK_THAT(run.out, Catch::Contains("\"kind\": \"memory\""));
  CHECK_THAT(run.out, Catch::Contains("\"kind\": \"nearest_fit\""));
  CHECK_THAT(run.out, Catch::Contains("\"found\": true"));
  CHECK_THAT(run.out, Catch::Contains("\"changes\""));
}

TEST_CASE("explain names TransformerEngine's FP8 recipe above the layer's ops", "[cli]") {
  const auto run = RunParaplan(
      ExplainLlama8b("tp=1,pp=1,micro_batch=1,global_batch=8,recompute=none,zero=1,precision=fp8,"
                     "fp8_recipe=tensorwise"));
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("fusion=te, fp8_recipe=tensorwise"));
  CHECK_THAT(run.out, Catch::Contains("fp8 cast"));
  CHECK_THAT(run.out, Catch::Contains(",fp8_recipe=tensorwise"));  // the re-run keeps it
}

TEST_CASE("explain breaks a layer into ops, text and JSON, under the plan's fusion", "[cli]") {
  const std::vector<std::string> base =
      ExplainLlama8b("tp=1,pp=1,micro_batch=1,global_batch=8,recompute=none,zero=1,fusion=eager");
  const auto text = RunParaplan(base);
  INFO(text.err);
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Catch::Contains("layer ops: one dense layer (32 in the model)"));
  CHECK_THAT(text.out, Catch::Contains("fusion=eager"));
  CHECK_THAT(text.out, Catch::Contains("core attention"));
  CHECK_THAT(text.out, Catch::Contains("memory"));           // norms and RoPE are memory-bound
  CHECK_THAT(text.out, Catch::Contains(",fusion=eager\""));  // the re-run keeps it
  std::vector<std::string> json = base;
  json.insert(json.end(), {"--format", "json"});
  const auto j = RunParaplan(json);
  REQUIRE(j.code == 0);
  CHECK_THAT(j.out, Catch::Contains("\"layer_ops\""));
  CHECK_THAT(j.out, Catch::Contains("\"op\": \"mlp up\""));
  CHECK_THAT(j.out, Catch::Contains("\"bound\": \"compute\""));
  CHECK_THAT(j.out, Catch::Contains("\"fusion\": \"eager\""));
}

TEST_CASE("a fusion profile that does not exist is a named error, exit 2", "[cli]") {
  const auto run = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                "--plan", "tp=1,pp=1,micro_batch=1,global_batch=8,fusion=jax"});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("fusion"));
}

TEST_CASE("explain lists each pipeline hop on its tier and ZeRO-3 calls per framework", "[cli]") {
  // tp=4, pp=4 on two 8-GPU nodes: 0->1 and 2->3 inside a node, 1->2 across.
  const auto pp = RunParaplan({"explain", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "16",
                               "--plan", "tp=4,pp=4,micro_batch=1,global_batch=32"});
  REQUIRE(pp.code == 0);
  CHECK_THAT(pp.out, Catch::Contains("activations to the next stage (stages 0->1, 2->3)"));
  CHECK_THAT(pp.out, Catch::Contains("activations to the next stage (stages 1->2)"));
  const auto z =
      RunParaplan(ExplainLlama8b("tp=1,pp=1,micro_batch=1,global_batch=64,recompute=full,zero=3"));
  REQUIRE(z.code == 0);
  CHECK_THAT(z.out, Catch::Contains("DeepSpeed ZeRO-3: "));
  CHECK_THAT(z.out, Catch::Contains("PyTorch FSDP1: "));
  CHECK_THAT(z.out, Catch::Contains("PyTorch FSDP2: "));
  CHECK_THAT(z.out, Catch::Contains("weight gathers per micro-batch"));
}

}  // namespace
}  // namespace paraplan
