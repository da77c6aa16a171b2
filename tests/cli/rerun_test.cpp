// Issue 18: every plan carries the --plan string that re-runs it, and one set of defaults serves
// every command: `simulate --plan "<rank 1's string>"` gives rank 1's step time and memory.
#include <catch2/catch.hpp>
#include <string>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

// The text of the first `"key": value` at or after `from` (a number or a quoted string).
std::string JsonField(const std::string& json, const std::string& key, size_t from = 0) {
  const std::string needle = "\"" + key + "\": ";
  const size_t at = json.find(needle, from);
  if (at == std::string::npos) return "";
  const size_t begin = at + needle.size();
  if (json[begin] == '"') {
    std::string out;
    for (size_t i = begin + 1; i < json.size() && json[i] != '"'; ++i) {
      if (json[i] == '\\') ++i;
      out += json[i];
    }
    return out;
  }
  return json.substr(begin, json.find_first_of(",\n}", begin) - begin);
}

void CheckRoundTrip(const std::vector<std::string>& job, const std::string& extra_plan) {
  std::vector<std::string> args = {"plan"};
  args.insert(args.end(), job.begin(), job.end());
  for (const char* a : {"--format", "json", "--top", "1"}) args.emplace_back(a);
  if (!extra_plan.empty()) {
    args.emplace_back("--plan");
    args.push_back(extra_plan);
  }
  const auto plan = RunParaplan(args);
  INFO(plan.err);
  REQUIRE(plan.code == 0);
  const size_t first = plan.out.find("\"plans\"");
  const std::string plan_string = JsonField(plan.out, "plan_string", first);
  REQUIRE_FALSE(plan_string.empty());
  CHECK_THAT(JsonField(plan.out, "rerun", first), Catch::Contains(plan_string));
  std::vector<std::string> sim = {"simulate"};
  // job minus --global-batch B (the string carries global_batch)
  for (size_t i = 0; i < job.size(); ++i) {
    if (job[i] == "--global-batch") {
      ++i;
      continue;
    }
    sim.push_back(job[i]);
  }
  for (const std::string& a :
       {std::string("--plan"), plan_string, std::string("--format"), std::string("json")}) {
    sim.push_back(a);
  }
  const auto rerun = RunParaplan(sim);
  INFO(plan_string << "\n" << rerun.err);
  REQUIRE(rerun.code == 0);
  CHECK(JsonField(rerun.out, "step_time_s") == JsonField(plan.out, "step_time_s", first));
  CHECK(JsonField(rerun.out, "memory_GiB") == JsonField(plan.out, "memory_GiB", first));
  CHECK(JsonField(rerun.out, "plan_string") == plan_string);
  // The ranked result keeps its per-stage breakdown (not emptied on the way to the report).
  CHECK(JsonField(plan.out, "total_GiB", first) == JsonField(rerun.out, "total_GiB"));
}

TEST_CASE("rank 1 re-runs exactly from its --plan string", "[cli][search]") {
  CheckRoundTrip({"-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--global-batch", "16"}, "");
  CheckRoundTrip({"-m", "llama3-70b", "-c", "dgx-h100", "-g", "64", "--global-batch", "480"}, "");
  // A MoE model: ep and the expert overlap switch travel in the string too.
  CheckRoundTrip({"-m", "mixtral-8x7b", "-c", "dgx-h100", "-g", "16", "--global-batch", "64"}, "");
  // A pinned uneven layer split and a non-default placement.
  CheckRoundTrip({"-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--global-batch", "16"},
                 "pp=2,pp_layers=15/17,placement=tp-dp-cp-ep-pp");
  // With an override the re-run command carries it.
  const auto run =
      RunParaplan({"plan", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--global-batch", "16",
                   "--set", "cluster.gpu.memory_GiB=40", "--top", "1", "--format", "json"});
  REQUIRE(run.code == 0);
  CHECK_THAT(JsonField(run.out, "rerun"), Catch::Contains("--set cluster.gpu.memory_GiB=40"));
}

TEST_CASE("simulate defaults match what plan assumes (sequence parallelism with tp > 1)", "[cli]") {
  const auto a = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--plan",
                              "tp=2,global_batch=16", "--format", "json"});
  REQUIRE(a.code == 0);
  CHECK(JsonField(a.out, "sequence_parallel") == "true");
  const auto b =
      RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--plan", "tp=2",
                   "--global-batch", "16", "--seq-len", "4096", "--format", "json"});
  INFO(b.err);
  REQUIRE(b.code == 0);
  CHECK(JsonField(b.out, "seq_len") == "4096");
  CHECK(JsonField(b.out, "global_batch") == "16");
}

}  // namespace
}  // namespace paraplan
