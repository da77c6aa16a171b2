// `model list`, `hardware list` and `completion bash`.
#include <catch2/catch.hpp>
#include <string>

#include "cli/cli_runner.h"
#include "config/data_catalog.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

TEST_CASE("model list names every shipped model with what it is and its source", "[cli]") {
  const auto run = RunParaplan({"model", "list"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("llama3-70b"));
  CHECK_THAT(run.out, Catch::Contains("deepseek-v3"));
  CHECK_THAT(run.out, Catch::Contains("(MoE)"));
  CHECK_THAT(run.out, Catch::Contains("config.json"));  // a cited source
  const auto json = RunParaplan({"model", "list", "--format", "json"});
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"source\": \"Meta-Llama-3-70B config.json"));
}

TEST_CASE("model list prints where the files are relative to the working folder", "[cli]") {
  // The tests run in the source tree (catch_discover_tests' WORKING_DIRECTORY), which holds
  // models/: the table says "in models", not the absolute path of this machine's checkout.
  const auto run = RunParaplan({"model", "list"});
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains(" in models; "));
  CHECK_THAT(run.out, !Catch::Contains(" in /"));
  const auto json = RunParaplan({"model", "list", "--format", "json"});
  CHECK_THAT(json.out, Catch::Contains("\"file\": \"models/llama3-70b.yaml\""));
}

TEST_CASE("hardware list names the clusters, not the efficiency defaults", "[cli]") {
  const auto run = RunParaplan({"hardware", "list"});
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("gb200-nvl72"));
  CHECK_THAT(run.out, Catch::Contains("H100-SXM5-80GB"));
  CHECK_THAT(run.out, !Catch::Contains("efficiency"));
  const auto names = RunParaplan({"hardware", "list", "--names"});
  // Sorted by name: alps-gh200 (stop 46) comes first.
  CHECK_THAT(names.out, Catch::StartsWith("alps-gh200\naws-p5-h100\ndgx-a100-80gb\n"));
}

TEST_CASE("a file's opening comment splits into what it is and its source", "[cli]") {
  const CommentParts a = SplitSourceComment("Llama 3 8B. Source: Meta config.json. More.");
  CHECK(a.about == "Llama 3 8B.");
  CHECK(a.source == "Meta config.json. More.");
  const CommentParts b =
      SplitSourceComment("HGX H800, used e.g. for DeepSeek-V3. GPU: the H100 datasheet.");
  CHECK(b.about == "HGX H800, used e.g. for DeepSeek-V3.");
  CHECK(b.source == "GPU: the H100 datasheet.");
}

TEST_CASE("completion bash lists every command and option", "[cli]") {
  const auto run = RunParaplan({"completion", "bash"});
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("complete -o default -F _paraplan paraplan"));
  CHECK_THAT(run.out, Catch::Contains("--global-batch"));
  CHECK_THAT(run.out, Catch::Contains("--pareto"));
  CHECK_THAT(run.out, Catch::Contains("model list --names"));
  const auto bad = RunParaplan({"completion", "fish"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("supported: bash"));
}

}  // namespace
}  // namespace paraplan

namespace paraplan {
namespace {

TEST_CASE("model show --seq-len is model.seq_len", "[cli]") {
  const auto flag = testing::RunParaplan(
      {"model", "show", "llama3-8b", "--seq-len", "32768", "--format", "json"});
  const auto set = testing::RunParaplan(
      {"model", "show", "llama3-8b", "--set", "model.seq_len=32768", "--format", "json"});
  REQUIRE(flag.code == 0);
  CHECK(flag.out == set.out);
  const auto bad = testing::RunParaplan({"model", "show", "llama3-8b", "--seq-len", "0"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err, Catch::Contains("--seq-len"));
}

}  // namespace
}  // namespace paraplan
