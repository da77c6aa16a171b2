// End-to-end: `plan --framework`, the budget flags, GPU-count sweeps and the HTML report.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

std::vector<std::string> SmallJob(std::vector<std::string> extra) {
  std::vector<std::string> args = {"plan",           "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                   "--global-batch", "16", "--threads", "2",  "--top",    "3"};
  args.insert(args.end(), extra.begin(), extra.end());
  return args;
}

TEST_CASE("plan --tokens and --price add a budget table with the band's source", "[cli][budget]") {
  const auto run = RunParaplan(SmallJob({"--tokens", "1T", "--price-per-gpu-hour", "2.5"}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("Budget (1.00 T tokens, $2.5 per GPU-hour"));
  CHECK_THAT(run.out, Catch::Contains("days"));
  CHECK_THAT(run.out, Catch::Contains("H100 runs"));
  CHECK_THAT(run.out, Catch::Contains("leave-one-source-out"));
  const auto json = RunParaplan(SmallJob({"--train-days", "7", "--format", "json"}));
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"budget\""));
  CHECK_THAT(json.out, Catch::Contains("\"gpu_hours\""));
  CHECK_THAT(json.out, Catch::Contains("\"step_time_s\""));  // the contract's name stays
  CHECK_THAT(json.out, !Catch::Contains("\"usd\""));         // no price, no dollars
}

TEST_CASE("plan --tokens on a GPU nobody fitted gives the leave-one-GPU-family-out band",
          "[cli][budget]") {
  const auto run =
      RunParaplan({"plan", "-m", "llama3-8b", "-c", "dgx-b300", "-g", "8", "--global-batch", "16",
                   "--threads", "2", "--top", "1", "--tokens", "1T"});
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, !Catch::Contains("band: none"));
  CHECK_THAT(run.out, Catch::Contains("B300 has no fitted runs"));
  CHECK_THAT(run.out, Catch::Contains("--cv gpu"));
  // B300 is Blackwell: its band is the Blackwell fold's, not every fold pooled.
  CHECK_THAT(run.out, Catch::Contains("Blackwell runs each predicted as a GPU nobody fitted"));
  CHECK_THAT(run.out, Catch::Contains("the family's fold"));
  // GB300 NVL72 (B300-GB300), the other Blackwell part nobody fitted, gets the same band.
  const auto gb300 =
      RunParaplan({"plan", "-m", "llama3-8b", "-c", "gb300-nvl72", "-g", "8", "--global-batch",
                   "16", "--threads", "2", "--top", "1", "--tokens", "1T"});
  INFO(gb300.err);
  REQUIRE(gb300.code == 0);
  CHECK_THAT(gb300.out, Catch::Contains("GB300 has no fitted runs"));
  CHECK_THAT(gb300.out, Catch::Contains("Blackwell runs each predicted as a GPU nobody fitted"));
}

TEST_CASE("plan --tokens shows goodput, interruptions, the checkpoint interval and energy",
          "[cli][budget][goodput]") {
  const auto run = RunParaplan(
      SmallJob({"--tokens", "1T", "--price-per-gpu-hour", "2", "--price-per-kwh", "0.1"}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  for (const char* column : {"goodput", "interruptions", "checkpoint every", "time to train",
                             "GPU-hours", "energy", "energy cost"}) {
    CHECK_THAT(run.out, Catch::Contains(column));
  }
  CHECK_THAT(run.out, Catch::Contains("Young/Daly"));
  CHECK_THAT(run.out, Catch::Contains("plans are ranked by it"));
  const auto json = RunParaplan(SmallJob({"--tokens", "1T", "--checkpoint", "async",
                                          "--checkpoint-interval", "30", "--format", "json"}));
  REQUIRE(json.code == 0);
  for (const char* key :
       {"\"goodput\"", "\"interruptions\"", "\"checkpoint_interval_source\": \"given\"",
        "\"checkpoint_mode\": \"async\"", "\"wall_days\"", "\"MWh\"", "\"days\""}) {
    CHECK_THAT(json.out, Catch::Contains(key));
  }
  // A what-if through --set: ten times the failures, lower goodput.
  const auto flaky = RunParaplan(SmallJob({"--tokens", "1T", "--format", "json", "--set",
                                           "cluster.reliability.failures_per_gpu_day=0.05"}));
  REQUIRE(flaky.code == 0);
  CHECK_THAT(flaky.out, Catch::Contains("\"failures_per_gpu_day\": 0.05"));
}

TEST_CASE("plan --headroom marks each plan inside or outside it", "[cli][headroom]") {
  const auto run = RunParaplan(SmallJob({"--headroom", "50", "--format", "json"}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("\"inside_headroom\""));
  const auto off = RunParaplan(SmallJob({"--headroom", "0", "--format", "json"}));
  REQUIRE(off.code == 0);
  CHECK_THAT(off.out, !Catch::Contains("\"inside_headroom\""));
}

TEST_CASE("bad budget flags exit 2 naming the flag", "[cli][budget]") {
  const std::vector<std::pair<std::vector<std::string>, const char*>> cases = {
      {{"--tokens", "15X"}, "--tokens"},
      {{"--price-per-gpu-hour", "2"}, "--price-per-gpu-hour"},
      {{"--tokens", "1T", "--train-days", "3"}, "--train-days"},
      {{"--train-days", "-1"}, "--train-days"},
      {{"--framework", "nemo"}, "--framework"},
      {{"--tokens", "1T", "--checkpoint", "often"}, "--checkpoint"},
      {{"--tokens", "1T", "--checkpoint-interval", "-5"}, "--checkpoint-interval"},
      {{"--price-per-kwh", "0.1"}, "--price-per-kwh"},
      {{"--headroom", "60"}, "--headroom"},
  };
  for (const auto& [extra, flag] : cases) {
    const auto run = RunParaplan(SmallJob(extra));
    INFO(extra.front() << ": " << run.err);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains(flag));
  }
  const auto model = RunParaplan({"plan", "-m", "gpt3-5b", "-c", "dgx-h100", "-g", "8",
                                  "--global-batch", "16", "--framework", "torchtitan"});
  CHECK(model.code == 2);
  CHECK_THAT(model.err, Catch::Contains("--framework torchtitan: model gpt3-5b"));
}

TEST_CASE("a GPU-count sweep shows the best plan, scaling and cost per count", "[cli][sweep]") {
  std::vector<std::string> args = {
      "plan",           "-m", "llama3-8b", "-c", "dgx-h100", "-g",  "8:32",
      "--global-batch", "64", "--threads", "2",  "--tokens", "100B"};
  const auto run = RunParaplan(args);
  INFO(run.err);
  REQUIRE(run.code == 0);
  for (const char* n : {"\n   8  tp=", "\n  16  tp=", "\n  32  tp="}) {
    CHECK_THAT(run.out, Catch::Contains(n));
  }
  CHECK_THAT(run.out, Catch::Contains("100.0 %"));  // the base count scales by definition
  CHECK_THAT(run.out, Catch::Contains("scaling: throughput per GPU relative to 8 GPUs"));
  args.insert(args.end(), {"--format", "json"});
  const auto json = RunParaplan(args);
  REQUIRE(json.code == 0);
  CHECK_THAT(json.out, Catch::Contains("\"scaling_efficiency\""));
  CHECK_THAT(json.out, Catch::Contains("\"gpus\": 32"));
  args.back() = "megatron";
  CHECK(RunParaplan(args).code == 2);
}

TEST_CASE("plan --framework keeps the export runnable, any says when it is not",
          "[cli][framework]") {
  const auto refused =
      RunParaplan(SmallJob({"--framework", "megatron", "--plan", "pp=2,schedule=dualpipe"}));
  CHECK(refused.code == 2);
  CHECK_THAT(refused.err, Catch::Contains("upstream Megatron-LM runs 1f1b and interleaved only"));
  // A launch format without --framework searches that framework's plans: the same refusal.
  const auto implied =
      RunParaplan(SmallJob({"--plan", "pp=2,schedule=dualpipe", "--format", "megatron"}));
  CHECK(implied.code == 2);
  CHECK_THAT(implied.err, Catch::Contains("upstream Megatron-LM runs 1f1b and interleaved only"));
  const auto any = RunParaplan(
      SmallJob({"--plan", "pp=2,schedule=dualpipe", "--framework", "any", "--format", "megatron"}));
  CHECK(any.code == 1);
  CHECK_THAT(any.out, Catch::Contains("NOT RUNNABLE in Megatron-LM"));
  CHECK_THAT(any.err, Catch::Contains("--framework megatron"));
  const auto ok = RunParaplan(SmallJob({"--framework", "megatron", "--format", "megatron"}));
  INFO(ok.err);
  CHECK(ok.code == 0);
  CHECK_THAT(ok.out, Catch::Contains("--num-layers 32"));
  CHECK_THAT(ok.out, Catch::Contains("--num-query-groups 8"));
}

TEST_CASE("plan --format html writes one self-contained page", "[cli][html]") {
  const auto run = RunParaplan(SmallJob({"--format", "html", "--tokens", "1T"}));
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK(run.out.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK_THAT(run.out, Catch::Contains("<table id=\"plans\">"));
  CHECK_THAT(run.out, Catch::Contains("<table id=\"budget\">"));
  for (const char* key : {"goodput", "interruptions", "checkpoint_min", "wall_days", "mwh"}) {
    CHECK_THAT(run.out, Catch::Contains(std::string("<td data-key=\"") + key + "\">"));
  }
  CHECK_THAT(run.out, Catch::Contains("simulated timeline of the best plan"));
  CHECK_THAT(run.out, !Catch::Contains("http"));
  CHECK_THAT(run.out, !Catch::Contains("<script"));
}

}  // namespace
}  // namespace paraplan
