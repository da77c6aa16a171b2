// V01-V05 of docs/validation/public_runs.yaml (docs/validation/README.md, "V01-V05"): Qwen3-30B-A3B
// under torchtitan with DeepEP on 1-16 DGX B200 nodes, a local batch of 8 at every scale. The rows
// load, state the job file's plan, and the model's step grows with the node count as the measured
// one does (FSDP's gathers and reductions cross more nodes; EP 8 stays in one node).
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "plan/framework.h"
#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

std::vector<RunSpec> DeepEpB200Rows() {
  return test::PublicRowsWithPrefix('V');
}

}  // namespace

TEST_CASE("V01-V05: torchtitan's DeepEP on B200, EP 8 in one node, FSDP over every rank",
          "[validate][public]") {
  const std::vector<RunSpec> rows = DeepEpB200Rows();
  REQUIRE(rows.size() == 5);
  int64_t gpus = 4;
  for (const RunSpec& run : rows) {
    INFO(run.id);
    CHECK(run.framework == Framework::kTorchtitan);
    CHECK(run.framework_version == "238fa99");
    CHECK(run.model.IsMoe());
    CHECK(run.cluster.gpu.name.find("B200") != std::string::npos);
    CHECK(run.gpus == 2 * gpus);  // 8, 16, 32, 64, 128
    gpus = run.gpus;
    CHECK(test::FixedKnob(run.plan.ep) == 8);
    CHECK(test::FixedKnob(run.plan.dp) == run.gpus);
    CHECK(test::FixedKnob(run.plan.micro_batch) == 8);
    CHECK(test::FixedKnob(run.plan.global_batch) == 8 * run.gpus);
    // step = 8 sequences of 4,096 tokens over the printed tokens/s per GPU
    CHECK(run.measured.at("step_time_s") ==
          Approx(8 * 4096 / run.measured.at("tokens_per_s_per_gpu")).epsilon(1e-4));
  }
}

TEST_CASE("V01-V05: the predicted step grows from 8 to 128 B200 as the measured one does",
          "[validate][public]") {
  const std::vector<RunSpec> rows = DeepEpB200Rows();
  // Measured 2.215 s at 8 GPUs, 2.365 s at 128 (+6.8%).
  const double one = test::PredictedStep(rows, "V01"), sixteen = test::PredictedStep(rows, "V05");
  CHECK(sixteen > one);
  CHECK(sixteen < 1.15 * one);
}
