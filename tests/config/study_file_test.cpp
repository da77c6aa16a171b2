#include "config/study_file.h"

#include <catch2/catch.hpp>
#include <string>

#include "core/error.h"

using namespace paraplan;

namespace {

const char* kInlineSpecs = R"(model:
  name: tiny
  layers: 4
  hidden: 256
  heads: 4
  ffn_hidden: 1024
  vocab: 1000
  seq_len: 128
  activation: gelu
  norm: layernorm
  position: learned
cluster:
  name: tiny-cluster
  gpu: {name: G, memory_GiB: 80, memory_bandwidth_GBps: 3000, peak_tflops: {bf16: 1000}}
  network:
    - {name: nvlink, span: 8, bandwidth_GBps: 450, latency_us: 3}
    - {name: scaleout, span: 4096, bandwidth_GBps: 50, latency_us: 10}
)";

std::string Study(const std::string& body) {
  return "study: t\n" + std::string(kInlineSpecs) + body;
}

std::string StudyErrorOf(const std::string& text) {
  try {
    ParseStudyText(text, "s.yaml");
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("study file: sweep and zip dimensions in file order", "[study]") {
  const StudySpec spec =
      ParseStudyText(Study("gpus: 64\n"
                           "plan: {global_batch: 64, tp: [1, 2]}\n"
                           "mode: simulate\n"
                           "metric: time.dp_comm_exposed_s\n"
                           "zip:\n"
                           "  cluster.network.scaleout.bandwidth_GBps: [25, 50]\n"
                           "  plan.moe_imbalance: [1.0, 1.5]\n"
                           "sweep:\n"
                           "  dp: [8, 16, 32]\n"
                           "  pp_layers: [[2, 2], [1, 3]]\n"),
                     "s.yaml");
  CHECK(spec.name == "t");
  CHECK(spec.mode == StudyMode::kSimulate);
  CHECK(spec.metric == "dp_comm_exposed_s");
  REQUIRE(spec.dimensions.size() == 3);
  CHECK(spec.dimensions[0].zipped);
  CHECK(spec.dimensions[0].axes.size() == 2);
  CHECK(spec.dimensions[0].axes[1].knob == "moe_imbalance");
  CHECK(spec.dimensions[1].axes[0].key == "dp");
  CHECK(spec.dimensions[2].axes[0].values[1].knob_values == std::vector<std::string>{"1/3"});
  CHECK(CountPoints(spec.dimensions) == 2 * 3 * 2);
  CHECK(spec.model.empty());  // inline

  const auto points = ExpandPoints(spec.dimensions);
  const StudyPointInput in = ResolveStudyPoint(spec, points[9]);  // zip[1], dp=16, [1,3]
  CHECK(in.cluster.network[1].bandwidth_GBps == 50);
  CHECK(in.model.hidden == 256);
  CHECK(in.gpus == 64);
  REQUIRE(in.plan.dp);
  CHECK(*in.plan.dp == std::vector<int64_t>{16});
  REQUIRE(in.plan.moe_imbalance);
  CHECK((*in.plan.moe_imbalance)[0] == 1.5);
  REQUIRE(in.plan.tp);
  CHECK(in.plan.tp->size() == 2);  // the base plan's list stays
}

TEST_CASE("study file errors carry file:line:col and the key", "[study]") {
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nsweep:\n  tp: [1, 2]\nzip:\n  pp: [1, 2]\n  dp: [1]\n")),
             Catch::Contains("s.yaml:24:") && Catch::Contains("zip lists must have equal length"));
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nsweeep: {tp: [1]}\n")),
             Catch::Contains("s.yaml:20:1") && Catch::Contains("sweep"));
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nsweep:\n  tq: [1, 2]\n")),
             Catch::Contains("s.yaml:21:") && Catch::Contains("did you mean 'tp'"));
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nsweep:\n  recompute: [none, some]\n")),
             Catch::Contains("s.yaml:21:") && Catch::Contains("selective"));
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nmetric: speed\n")), Catch::Contains("s.yaml:20:9"));
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nmode: search\n")), Catch::Contains("simulate"));
  CHECK_THAT(StudyErrorOf(Study("sweep: {tp: [1]}\n")), Catch::Contains("gpus"));
  CHECK_THAT(StudyErrorOf(Study("gpus: 8\nsweep: {tp: [1], plan.tp: [2]}\n")),
             Catch::Contains("swept twice"));
}
