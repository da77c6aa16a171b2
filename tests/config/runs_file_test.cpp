#include "config/runs_file.h"

#include <catch2/catch.hpp>

#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

TEST_CASE("the public runs file loads completely", "[config]") {
  const std::vector<RunSpec> runs =
      LoadRunsFile(std::string(PARAPLAN_SHARED_DIR) + "/validation/public_runs.yaml");
  // The shared copy is maintained outside the project (it dropped the reserved H10/H15 rows):
  // every run it holds must load, however many there are.
  REQUIRE(runs.size() >= 36);
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.error.empty());
    CHECK(run.gpus > 0);
    CHECK(run.model.layers > 0);
    CHECK_FALSE(run.cluster.network.empty());
    CHECK(run.measured.count("step_time_s") == 1);
    CHECK(run.where.line > 0);
  }
  CHECK(runs[0].id == "A01");
  CHECK(*runs[0].plan.dp == std::vector<int64_t>{32});
  int overridden = 0;
  for (const RunSpec& run : runs) overridden += run.cluster.gpu.memory_GiB == 96 ? 1 : 0;
  CHECK(overridden == 14);
}

const char* kRun =
    "runs:\n"
    "  - id: R1\n"
    "    model: llama3-8b\n"
    "    cluster: dgx-h100\n"
    "    overrides: {model.seq_len: 4096, cluster.network.scaleout.bandwidth_GBps: 25}\n"
    "    gpus: 8\n"
    "    plan: {tp: [1, 2]}\n"
    "    measured: {step_time_s: 1.5, mfu: 0.4}\n"
    "  - id: R2\n"
    "    model: no-such-model\n"
    "    cluster: {name: x, gpu: {name: g, memory_GiB: 80, memory_bandwidth_GBps: 1,"
    " peak_tflops: {bf16: 1}}, network: [{name: nvlink, span: 8, bandwidth_GBps: 1, latency_us: "
    "1}]}\n"
    "    gpus: 8\n";

TEST_CASE("runs file: names, inline clusters, overrides and unresolvable runs", "[config]") {
  const std::vector<RunSpec> runs = LoadRunsFile(testing::WriteScratch("runs/ok.yaml", kRun));
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].error.empty());
  CHECK(runs[0].model.seq_len == 4096);
  CHECK(runs[0].cluster.network[1].bandwidth_GBps == 25);
  CHECK(runs[0].measured.at("mfu") == 0.4);
  CHECK_THAT(runs[1].error, Contains("unknown model 'no-such-model'"));
  CHECK(runs[1].cluster.name == "x");
  CHECK_FALSE(runs[0].evaluation_only);
}

TEST_CASE("runs file: evaluation_only marks a run no fit may see", "[config]") {
  const std::vector<RunSpec> runs = LoadRunsFile(testing::WriteScratch(
      "runs/eval.yaml",
      "runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100, evaluation_only: true}\n"
      "  - {id: B, gpus: 8, model: llama3-8b, cluster: dgx-h100, evaluation_only: false}\n"));
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].evaluation_only);
  CHECK_FALSE(runs[1].evaluation_only);
  CHECK_THAT(ErrorOf([] {
               LoadRunsFile(testing::WriteScratch(
                   "runs/eval_bad.yaml",
                   "runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100, "
                   "evaluation_only: maybe}\n"));
             }),
             Contains("evaluation_only"));
}

TEST_CASE("runs file: eval_sequences_per_step states the evaluation inside a timed step",
          "[config]") {
  const std::vector<RunSpec> runs = LoadRunsFile(
      testing::WriteScratch("runs/evalpass.yaml",
                            "runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100, "
                            "eval_sequences_per_step: 1024}\n"
                            "  - {id: B, gpus: 8, model: llama3-8b, cluster: dgx-h100}\n"));
  REQUIRE(runs.size() == 2);
  CHECK(runs[0].eval_sequences_per_step == 1024);
  CHECK(runs[1].eval_sequences_per_step == 0);  // optional: no evaluation in the step
  CHECK_THAT(ErrorOf([] {
               LoadRunsFile(testing::WriteScratch(
                   "runs/evalpass_bad.yaml",
                   "runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100, "
                   "eval_sequences_per_step: 0}\n"));
             }),
             Contains("eval_sequences_per_step: must be > 0"));
}

TEST_CASE("the project's reserved runs are all evaluation-only", "[config]") {
  const std::vector<RunSpec> reserved =
      LoadRunsFile(PARAPLAN_SOURCE_DIR "/docs/validation/reserved_runs.yaml");
  REQUIRE(reserved.size() == 2);
  for (const RunSpec& run : reserved) {
    INFO(run.id);
    CHECK(run.evaluation_only);
    CHECK(run.error.empty());
  }
  // ...and no run of the fitted public file is one of them. The public file's only evaluation-only
  // runs are those on Blackwell Ultra (B300, GB300), kept unfitted so that they test what a GPU
  // nobody fitted gets (docs/formats.md, `evaluation_only`).
  for (const RunSpec& run : LoadRunsFile(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml")) {
    INFO(run.id);
    CHECK(run.evaluation_only == (run.cluster.gpu.name.find("B300") != std::string::npos));
    for (const RunSpec& r : reserved) CHECK(run.id != r.id);
    CHECK(run.source.find("Megatron-Bridge") == std::string::npos);
  }
}

TEST_CASE("runs file: malformed files are errors with locations", "[config]") {
  const auto load = [](const std::string& text) {
    return ErrorOf([&] { LoadRunsFile(testing::WriteScratch("runs/bad.yaml", text)); });
  };
  CHECK_THAT(
      load("runs:\n  - id: A\n    gpus: 8\n    model: llama3-8b\n    cluster: dgx-h100\n"
           "    measured: {step_time: 3}\n"),
      Contains(
          "runs[0].measured.step_time: unknown key 'step_time' (did you mean 'step_time_s'?)"));
  CHECK_THAT(load("runs:\n  - id: A\n    gpus: 0\n    model: llama3-8b\n    cluster: dgx-h100\n"),
             Contains("bad.yaml:3:11: runs[0].gpus: must be > 0, got 0"));
  CHECK_THAT(load("runs:\n  - id: A\n    gpus: 8\n    model: llama3-8b\n    cluster: dgx-h100\n"
                  "    overrides: {gpu.memory_GiB: 9}\n"),
             Contains("an override path starts with one of: model, cluster"));
  CHECK_THAT(load("runs:\n  - id: A\n    gpus: 8\n    model: {name: m, layers: -1}\n"
                  "    cluster: dgx-h100\n"),
             Contains("runs[0].model.layers: must be > 0, got -1"));
  CHECK_THAT(load("runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100}\n"
                  "  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100}\n"),
             Contains("duplicate run id 'A'"));
  CHECK_THAT(load("runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100,\n"
                  "      framework: torchtitan, framework_version: abc}\n"),
             Contains("no profile of torchtitan at 'abc'; known versions: 9dec370, 238fa99"));
  CHECK_THAT(load("runs:\n  - {id: A, gpus: 8, model: llama3-8b, cluster: dgx-h100,\n"
                  "      framework_version: 9dec370}\n"),
             Contains("framework_version: needs `framework:`"));
}

TEST_CASE("every project run states its framework", "[config][framework]") {
  for (const char* file :
       {"/docs/validation/public_runs.yaml", "/docs/validation/reserved_runs.yaml"}) {
    for (const RunSpec& run : LoadRunsFile(std::string(PARAPLAN_SOURCE_DIR) + file)) {
      INFO(run.id);
      CHECK(run.framework != Framework::kUnstated);
    }
  }
}

}  // namespace
}  // namespace paraplan
