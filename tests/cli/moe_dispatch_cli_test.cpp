// End-to-end: DeepEP's two-hop dispatch as a plan knob (issue 17), from the CLI.
#include <catch2/catch.hpp>
#include <string>

#include "cli_runner.h"

using Catch::Matchers::Contains;
using paraplan::testing::RunParaplan;

namespace {

// DeepSeek-V3 on 2,048 H800 with Megatron-Core's 1F1B: ep 64 spans 8 nodes.
const char* const kPlan =
    "tp=1,pp=16,ep=64,schedule=1f1b,zero=1,micro_batch=1,global_batch=15360,seq_len=4096,"
    "precision=fp8,recompute=full";

double StepSeconds(const std::string& json) {
  const std::string key = "\"step_time_s\": ";
  const size_t at = json.find(key);
  REQUIRE(at != std::string::npos);
  return std::stod(json.substr(at + key.size()));
}

}  // namespace

TEST_CASE("moe_deepep sends DeepSeek-V3's tokens in two hops, and the step is faster",
          "[cli][moe]") {
  auto run = [](const std::string& extra) {
    return RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan",
                        std::string(kPlan) + extra, "--format", "json"});
  };
  const auto flat = run("");
  const auto deepep = run(",moe_deepep=true");
  INFO(deepep.err);
  REQUIRE(flat.code == 0);
  REQUIRE(deepep.code == 0);
  CHECK_THAT(deepep.out, Contains("\"moe_deepep\": true"));
  CHECK(StepSeconds(deepep.out) < StepSeconds(flat.out));
  // explain's collective table names the pass.
  const auto text = RunParaplan({"explain", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                 "--plan", std::string(kPlan) + ",moe_deepep=true"});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Contains("two-hop"));
  CHECK_THAT(text.out, Contains("moe_deepep=true"));  // the re-run string keeps it
  // Megatron-LM's launch line: the flex dispatcher with DeepEP, and the routing groups.
  const auto launch = RunParaplan({"plan", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                   "--plan", std::string(kPlan) + ",moe_deepep=true", "--framework",
                                   "megatron", "--format", "megatron"});
  INFO(launch.err);
  REQUIRE(launch.code == 0);
  CHECK_THAT(launch.out, Contains("--moe-token-dispatcher-type flex"));
  CHECK_THAT(launch.out, Contains("--moe-enable-deepep"));
  CHECK_THAT(launch.out, Contains("--moe-router-num-groups 8"));
  CHECK_THAT(launch.out, Contains("--moe-router-group-topk 4"));
  // model show states the group-limited routing the two-hop cost reads.
  const auto show = RunParaplan({"model", "show", "deepseek-v3"});
  REQUIRE(show.code == 0);
  CHECK_THAT(show.out, Contains("256 experts top-8 within 4 of 8 groups"));
  // A bad value is refused with the knob named.
  const auto bad = run(",moe_deepep=maybe");
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("moe_deepep"));
}

TEST_CASE("moe_hybridep runs the two-hop dispatch as HybridEP and exports its backend",
          "[cli][moe]") {
  const std::string plan = std::string(kPlan) + ",moe_hybridep=true";
  const auto json = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                 "--plan", plan, "--format", "json"});
  INFO(json.err);
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Contains("\"moe_hybridep\": true"));
  const auto text =
      RunParaplan({"explain", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan", plan});
  REQUIRE(text.code == 0);
  CHECK_THAT(text.out, Contains("HybridEP"));
  CHECK_THAT(text.out, Contains("moe_hybridep=true"));  // the re-run string keeps it
  // Megatron-Core's launch line: the flex dispatcher with the HybridEP backend.
  const auto launch =
      RunParaplan({"plan", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048", "--plan", plan,
                   "--framework", "megatron", "--format", "megatron"});
  INFO(launch.err);
  REQUIRE(launch.code == 0);
  CHECK_THAT(launch.out, Contains("--moe-token-dispatcher-type flex"));
  CHECK_THAT(launch.out, Contains("--moe-flex-dispatcher-backend hybridep"));
  const auto bad = RunParaplan({"simulate", "-m", "deepseek-v3", "-c", "hgx-h800", "-g", "2048",
                                "--plan", std::string(kPlan) + ",moe_hybridep=2"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Contains("moe_hybridep"));
}
