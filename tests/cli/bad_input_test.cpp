// Issue 18: bad input as users make it. Each gets a message naming what is wrong and where, and
// exit 2 — never a hang, a crash, or CLI11's generic text.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

TEST_CASE("gpus 0 names the flag and its range", "[cli]") {
  const auto run =
      RunParaplan({"plan", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "0", "--global-batch", "16"});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("--gpus"));
  CHECK_THAT(run.err, Catch::Contains("from 1 to 1048576, got '0'"));
  CHECK(run.err.size() < 300);
}

TEST_CASE("an unknown command says so, with a suggestion", "[cli]") {
  const auto foo = RunParaplan({"foo"});
  CHECK(foo.code == 2);
  CHECK_THAT(foo.err, Catch::Contains("unknown command 'paraplan foo'"));
  CHECK_THAT(foo.err, Catch::Contains("plan, simulate"));
  const auto typo = RunParaplan({"simulat"});
  CHECK_THAT(typo.err, Catch::Contains("did you mean 'paraplan simulate'"));
  const auto model = RunParaplan({"model", "lst"});
  CHECK(model.code == 2);
  CHECK_THAT(model.err, Catch::Contains("did you mean 'paraplan model list'"));
  const auto bare = RunParaplan({"hardware"});
  CHECK(bare.code == 2);
  CHECK_THAT(bare.err, Catch::Contains("'paraplan hardware' needs a command: list, show"));
}

TEST_CASE("an unknown option is reported wherever it stands", "[cli]") {
  for (const auto& args :
       std::vector<std::vector<std::string>>{{"plan", "--bogus", "1", "-m", "llama3-8b"},
                                             {"plan", "--bogus", "1"},
                                             {"simulate", "-m", "llama3-8b", "--bogus"}}) {
    const auto run = RunParaplan(args);
    CHECK(run.code == 2);
    CHECK_THAT(run.err, Catch::Contains("--bogus"));
  }
}

TEST_CASE("a plan string with spaces instead of commas is refused with the fix", "[cli]") {
  const auto run = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                "--plan", "tp=2 pp=1 global_batch=16"});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("separated by commas, not spaces"));
  CHECK_THAT(run.err, Catch::Contains("\"tp=2,pp=1,global_batch=16\""));
  // Spaces after commas and around '=' and '|' stay fine.
  const auto ok = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8", "--plan",
                               "tp = 2, global_batch=16"});
  INFO(ok.err);
  CHECK(ok.code == 0);
}

TEST_CASE("another tool's knob name gets did-you-mean", "[cli]") {
  const auto run = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                "--plan", "mbs=1,global_batch=16"});
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains("--plan: mbs: unknown plan knob 'mbs'"));
  CHECK_THAT(run.err, Catch::Contains("did you mean 'micro_batch'"));
  const auto gbs = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                "--plan", "tensor_model_parallel_size=2"});
  CHECK_THAT(gbs.err, Catch::Contains("did you mean 'tp'"));
}

std::string WriteModel(const std::string& name, const std::string& heads_line) {
  std::string path = "paraplan_test_" + name + ".yaml";
  std::ofstream(path) << "name: huge\nlayers: 2\nhidden: 4096\n"
                      << heads_line << "\nvocab: 32000\nseq_len: 4096\nffn_hidden: 11008\n"
                      << "activation: swiglu\n";
  return path;
}

TEST_CASE("a model with absurd counts is refused at load, fast, at file:line:col", "[cli]") {
  const std::string path = WriteModel("heads", "heads: 2147483648");
  const auto start = std::chrono::steady_clock::now();
  const auto run =
      RunParaplan({"plan", "-m", path, "-c", "dgx-h100", "-g", "8", "--global-batch", "16"});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::remove(path.c_str());
  CHECK(run.code == 2);
  CHECK_THAT(run.err, Catch::Contains(path + ":4:8: heads: must be at most 16384"));
  CHECK(seconds < 2.0);
  const auto set = RunParaplan({"model", "show", "llama3-8b", "--set", "model.layers=100000"});
  CHECK(set.code == 2);
  CHECK_THAT(set.err, Catch::Contains("layers: must be at most 4096"));
  const auto span = RunParaplan(
      {"hardware", "show", "dgx-h100", "--set", "cluster.network.nvlink.span=99999999999"});
  CHECK(span.code == 2);
  CHECK_THAT(span.err, Catch::Contains("span: must be at most 16777216"));
}

TEST_CASE("a bad recipe switch exits 2 naming where and the knob, in --plan and in a runs file",
          "[cli]") {
  // A kernel switch and a memory switch, each a bad value and alternatives where one is taken.
  for (const char* knob : {"fused_norm", "cross_entropy_fusion"}) {
    INFO(knob);
    const std::string name(knob);
    const auto plan = RunParaplan({"simulate", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                   "--plan", "global_batch=16," + name + "=maybe"});
    CHECK(plan.code == 2);
    CHECK_THAT(plan.err,
               Catch::Contains("--plan: " + name + ": 'maybe' is not one of: true, false"));
    const std::string path = "paraplan_test_switch_" + name + ".yaml";
    std::ofstream(path) << "runs:\n  - id: X1\n    source: \"test\"\n    framework: megatron\n"
                        << "    model: \"llama3-8b\"\n    cluster: \"dgx-h100\"\n    gpus: 8\n"
                        << "    plan: {global_batch: 16, " << name << ": [true, false]}\n"
                        << "    measured: {step_time_s: 1.0}\n";
    const auto runs = RunParaplan({"validate", path});
    std::remove(path.c_str());
    CHECK(runs.code == 2);
    std::string where = path;  // the flow sequence's '[' on line 8
    where += ":8:" + std::to_string(32 + name.size()) + ": runs[0].plan.";
    where += name;
    CHECK_THAT(runs.err, Catch::Contains(where + ": takes one value, not alternatives"));
  }
}

}  // namespace
}  // namespace paraplan
