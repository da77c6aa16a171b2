// End-to-end tests of `paraplan plan`, run in-process with captured streams.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

testing::CliOutput RunPlan(std::vector<std::string> args) {
  args.insert(args.begin(), "plan");
  return testing::RunParaplan(std::move(args));
}

const std::vector<std::string> kSmall = {"-m", "llama3-8b",      "-c", "dgx-h100", "-g",
                                         "8",  "--global-batch", "16"};

std::vector<std::string> Small(std::vector<std::string> extra) {
  std::vector<std::string> args = kSmall;
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST_CASE("plan finds and ranks plans for a small job", "[search][cli]") {
  const testing::CliOutput run =
      RunPlan(Small({"--format", "json", "--top", "3", "--threads", "2"}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("\"plans\""));
  CHECK_THAT(run.out, Catch::Contains("\"pareto\""));
  CHECK_THAT(run.out, Catch::Contains("\"searched\""));
  CHECK_THAT(run.out, Catch::Contains("\"step_time_s\""));
}

TEST_CASE("plan output is identical for any thread count", "[search][cli]") {
  const testing::CliOutput one = RunPlan(Small({"--format", "csv", "--threads", "1"}));
  const testing::CliOutput three = RunPlan(Small({"--format", "csv", "--threads", "3"}));
  REQUIRE(one.code == 0);
  CHECK(one.out == three.out);
  CHECK(std::count(one.out.begin(), one.out.end(), '\n') >= 2);
}

TEST_CASE("plan honours --plan and prints launcher flags", "[search][cli]") {
  const testing::CliOutput run =
      RunPlan(Small({"--plan", "tp=2,recompute=selective", "--format", "megatron"}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("--tensor-model-parallel-size 2"));
  CHECK_THAT(run.out, Catch::Contains("--recompute-granularity selective"));
  CHECK_THAT(run.out, Catch::Contains("--global-batch-size 16"));
  // torchtitan's own search: async TP (a best plan's overlap_tp_comm) needs torch.compile there.
  const testing::CliOutput titan =
      RunPlan(Small({"--plan", "tp=2", "--framework", "torchtitan", "--format", "torchtitan"}));
  INFO(titan.out);
  REQUIRE(titan.code == 0);
  CHECK_THAT(titan.out, Catch::Contains("tensor_parallel_degree = 2"));
}

TEST_CASE("plan writes the table, a file and the best plan's trace", "[search][cli]") {
  const std::string report = "plan_test_report.txt";
  const std::string trace = "plan_test_trace.json";
  const testing::CliOutput run = RunPlan(Small({"--top", "2", "-o", report, "--trace", trace}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  std::stringstream text, events;
  text << std::ifstream(report).rdbuf();
  events << std::ifstream(trace).rdbuf();
  CHECK_THAT(text.str(), Catch::Contains("GiB"));
  CHECK_THAT(text.str(), Catch::Contains("Pareto front"));
  CHECK_THAT(events.str(), Catch::Contains("traceEvents"));
  std::remove(report.c_str());
  std::remove(trace.c_str());
}

TEST_CASE("plan exits 1 and explains when nothing fits", "[search][cli]") {
  const testing::CliOutput run = RunPlan(
      {"-m", "gpt3-175b", "-c", "dgx-h100", "-g", "8", "--global-batch", "8", "--format", "json"});
  CHECK(run.code == 1);
  CHECK_THAT(run.err, Catch::Contains("No plan fits in 80.0 GiB"));
  CHECK_THAT(run.err, Catch::Contains("needs"));
  CHECK_THAT(run.err, Catch::Contains("What would make"));
  CHECK_THAT(run.out, Catch::Contains("\"why_nothing_fits\""));
}

TEST_CASE("plan lists closest plans with distinct memory footprints", "[search][cli]") {
  // On 8 GPUs, 405B never fits; overlap and schedule variants of one plan share a footprint.
  const testing::CliOutput run =
      RunPlan({"-m", "llama3.1-405b", "-c", "dgx-h100", "-g", "8", "--global-batch", "8"});
  REQUIRE(run.code == 1);
  std::istringstream lines(run.out + run.err);
  std::set<std::string> footprints;
  int listed = 0;
  for (std::string line; std::getline(lines, line);) {
    const size_t at = line.find(": stage ");
    if (line.rfind("  ", 0) != 0 || at == std::string::npos) continue;
    ++listed;
    footprints.insert(line.substr(at));
  }
  CHECK(listed >= 2);
  CHECK(footprints.size() == static_cast<size_t>(listed));
}

TEST_CASE("plan rejects bad input with exit 2", "[search][cli]") {
  CHECK_THAT(RunPlan(Small({"--format", "yaml"})).err, Catch::Contains("valid values"));
  CHECK(RunPlan(Small({"--format", "yaml"})).code == 2);
  const testing::CliOutput no_batch = RunPlan({"-m", "llama3-8b", "-c", "dgx-h100", "-g", "8"});
  CHECK(no_batch.code == 2);
  CHECK_THAT(no_batch.err, Catch::Contains("--global-batch"));
  CHECK(RunPlan(Small({"--objective", "speed"})).code == 2);
  CHECK(RunPlan(Small({"--plan", "tp=banana"})).code == 2);
}

TEST_CASE("plan --help shows examples", "[search][cli]") {
  const testing::CliOutput run = RunPlan({"--help"});
  CHECK(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("Examples"));
  CHECK_THAT(run.out, Catch::Contains("--objective"));
}

TEST_CASE("plan cuts the Pareto front past --pareto-max-slowdown and says where", "[cli][search]") {
  const std::vector<std::string> args = {"-m", "llama3-70b",     "-c",  "dgx-h100", "-g",
                                         "64", "--global-batch", "512", "--pareto", "100",
                                         "-q"};
  auto with = [&](std::vector<std::string> more) {
    std::vector<std::string> all = args;
    all.insert(all.end(), more.begin(), more.end());
    return RunPlan(all);
  };
  // The whole front reaches past 5x the fastest point (292.5 s against 55.5 s per step).
  const testing::CliOutput table = with({});
  REQUIRE(table.code == 0);
  CHECK_THAT(table.out, Catch::Contains("s per step (2x the fastest) not shown "
                                        "(--pareto-max-slowdown)"));
  const testing::CliOutput json = with({"--format", "json"});
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"pareto_cut_step_s\": "));
  CHECK_THAT(json.out, !Catch::Contains("\"pareto_cut\": 0,"));
  const testing::CliOutput json_whole = with({"--format", "json", "--pareto-max-slowdown", "0"});
  CHECK_THAT(json_whole.out, Catch::Contains("\"pareto_cut\": 0,"));
  CHECK_THAT(json_whole.out, Catch::Contains("\"pareto_cut_step_s\": 0,"));
  CHECK(json_whole.out.size() > json.out.size());  // the slow end is back
  const testing::CliOutput bad = with({"--pareto-max-slowdown", "0.5"});
  CHECK(bad.code == 2);
  CHECK_THAT(bad.err,
             Catch::Contains("--pareto-max-slowdown: must be 0 (the whole front) or >= 1"));
}

}  // namespace
}  // namespace paraplan
