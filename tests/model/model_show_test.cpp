// End-to-end: `paraplan model show` run in-process through RunCli.
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"

using namespace paraplan;

namespace {

struct CliResult {
  int code = 0;
  std::string out;
  std::string err;
};

CliResult Run(std::vector<std::string> args) {
  args.insert(args.begin(), "paraplan");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out;
  std::ostringstream err;
  CliResult r;
  r.code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

std::string ModelPath(const std::string& name) {
  return std::string(PARAPLAN_SOURCE_DIR) + "/models/" + name + ".yaml";
}

}  // namespace

TEST_CASE("model show prints JSON with totals, breakdown and dims", "[model]") {
  const std::string path = ModelPath("deepseek-v3");
  if (!std::filesystem::exists(path)) return;
  const CliResult r = Run({"model", "show", path, "--format", "json"});
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
  const std::string path = ModelPath("llama3-70b");
  if (!std::filesystem::exists(path)) return;
  const CliResult r = Run({"model", "show", path});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out.find("70.55 B") != std::string::npos);
  CHECK(r.out.find("GFLOP/token") != std::string::npos);
  CHECK(r.out.find("seq_len 8192") != std::string::npos);
  const CliResult longer = Run({"model", "show", path, "--set", "model.seq_len=32768"});
  REQUIRE(longer.code == 0);
  CHECK(longer.out.find("seq_len 32768") != std::string::npos);
}

TEST_CASE("model show rejects bad input with exit code 2", "[model]") {
  const CliResult missing = Run({"model", "show", "no-such-model-xyz"});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("no-such-model-xyz") != std::string::npos);
  const std::string path = ModelPath("llama3-8b");
  if (!std::filesystem::exists(path)) return;
  const CliResult format = Run({"model", "show", path, "--format", "yaml"});
  CHECK(format.code == 2);
  CHECK(format.err.find("table, json") != std::string::npos);
  const CliResult set = Run({"model", "show", path, "--set", "cluster.gpu.memory_GiB=96"});
  CHECK(set.code == 2);
  CHECK(set.err.find("model.*") != std::string::npos);
}

TEST_CASE("model show --help shows examples", "[model]") {
  const CliResult r = Run({"model", "show", "--help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("paraplan model show deepseek-v3 --format json") != std::string::npos);
}
