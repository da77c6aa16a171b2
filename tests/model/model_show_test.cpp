// End-to-end: `paraplan model show` run in-process through RunCli (tests/cli/cli_runner.h).
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

using namespace paraplan;

namespace {

std::string ShownModelPath(const std::string& name) {
  return std::string(PARAPLAN_SOURCE_DIR) + "/models/" + name + ".yaml";
}

}  // namespace

TEST_CASE("model show prints JSON with totals, breakdown and dims", "[model]") {
  const std::string path = ShownModelPath("deepseek-v3");
  if (!std::filesystem::exists(path)) return;
  const testing::CliOutput r = testing::RunParaplan({"model", "show", path, "--format", "json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* key :
       {"\"name\": \"deepseek-v3\"", "\"params_total\": 671", "\"params_active\": 37",
        "\"params_total_with_mtp\": 682", "\"flops_per_token\": 2", "\"moe_experts\":",
        "\"shared_experts\":", "\"router\":", "\"embedding\":", "\"logits\":", "\"mtp\":",
        "\"attention\":", "\"mlp\":", "\"kv_lora_rank\": 512", "\"moe\": 58", "\"dense\": 3"}) {
    CHECK(r.out.find(key) != std::string::npos);
  }
}

TEST_CASE("model show prints a table with units and honours --set", "[model]") {
  const std::string path = ShownModelPath("llama3-70b");
  if (!std::filesystem::exists(path)) return;
  const testing::CliOutput r = testing::RunParaplan({"model", "show", path});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("70.55 B") != std::string::npos);
  CHECK(r.out.find("GFLOP/token") != std::string::npos);
  CHECK(r.out.find("seq_len 8192") != std::string::npos);
  const testing::CliOutput longer =
      testing::RunParaplan({"model", "show", path, "--set", "model.seq_len=32768"});
  REQUIRE(longer.code == 0);
  CHECK(longer.out.find("seq_len 32768") != std::string::npos);
}

TEST_CASE("model show rejects bad input with exit code 2", "[model]") {
  const testing::CliOutput missing = testing::RunParaplan({"model", "show", "no-such-model-xyz"});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("no-such-model-xyz") != std::string::npos);
  const std::string path = ShownModelPath("llama3-8b");
  if (!std::filesystem::exists(path)) return;
  const testing::CliOutput format =
      testing::RunParaplan({"model", "show", path, "--format", "yaml"});
  CHECK(format.code == 2);
  CHECK(format.err.find("table, json") != std::string::npos);
  const testing::CliOutput set =
      testing::RunParaplan({"model", "show", path, "--set", "cluster.gpu.memory_GiB=96"});
  CHECK(set.code == 2);
  CHECK(set.err.find("model.*") != std::string::npos);
}

TEST_CASE("model show --help shows examples", "[model]") {
  const testing::CliOutput r = testing::RunParaplan({"model", "show", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("paraplan model show deepseek-v3 --format json") != std::string::npos);
}
