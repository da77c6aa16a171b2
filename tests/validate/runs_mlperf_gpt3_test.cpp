// The MLPerf Training GPT-3 175B rows (M01-M21 and Y11 of docs/validation/public_runs.yaml;
// docs/validation/README.md, "MLPerf Training"): every round's NeMo config runs apex's
// DistributedFusedAdam with grad_sync_dtype bf16 and overlapped gradient and parameter syncs
// (v3.0 conf/megatron_gpt_config.yaml `optim`; v3.1-v4.1 conf/optim/distributed_fused_adam.yaml;
// Oracle's v4.1 logs print it), and apex allocates its gradient buffer in that dtype (NVIDIA/apex
// distributed_fused_adam.py, _init_grad_buffer at 52e18c8). The rows state it (stop 42, branch
// h44scale): a bf16 gradient buffer reduced in bf16, both overlaps on.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// M01-M21 (v3.0-v4.1 gpt3) and Y11 (Supermicro's v4.0 gpt3).
std::vector<RunSpec> Gpt3Rows() {
  std::vector<RunSpec> picked;
  for (RunSpec& run : test::PublicRowsWithPrefix('M')) {
    const int row = test::RowNumber(run.id);  // M01-M21, not MX02
    if (row >= 1 && row <= 21) picked.push_back(std::move(run));
  }
  for (RunSpec& run : test::PublicRowsWithPrefix('Y')) {
    if (run.id == "Y11") picked.push_back(std::move(run));
  }
  return picked;
}

}  // namespace

TEST_CASE(
    "MLPerf GPT-3 rows: apex's bf16 gradient sync, both overlaps, faster than fp32 at 10,240 H100",
    "[validate][public]") {
  const std::vector<RunSpec> runs = Gpt3Rows();
  REQUIRE(runs.size() == 22);
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.framework == Framework::kNemo);
    CHECK(run.model.name == "gpt3-175b");
    REQUIRE(run.plan.grad_reduce_in_fp32.has_value());
    CHECK(*run.plan.grad_reduce_in_fp32 == std::vector<bool>{false});
    REQUIRE(run.plan.overlap_grad_reduce.has_value());
    CHECK(*run.plan.overlap_grad_reduce == std::vector<bool>{true});
    REQUIRE(run.plan.overlap_param_gather.has_value());
    CHECK(*run.plan.overlap_param_gather == std::vector<bool>{true});
    // apex's bucket_cap_mb is left out: the megatron_ddp_buckets convention applies anyway.
    CHECK_FALSE(run.plan.dp_bucket_MB.has_value());
  }

  // M11 (DP 320, eight sequences per replica): the DP reduce-scatter and gather are the largest
  // exposed part after compute, so halving the gradient bytes must shorten the predicted step.
  const double stated = test::PredictedStep(runs, "M11");
  std::vector<RunSpec> fp32 = {test::FindRow(runs, "M11")};
  fp32[0].plan.grad_reduce_in_fp32 = std::vector<bool>{true};
  const double wider = test::PredictedStep(fp32, "M11");
  CHECK(stated < wider);
  // In-sample with the shipped efficiencies at the change (stop 42): 0.948 s against 0.9256 s
  // measured (+2.4%; +3.9% with fp32 gradients). Stop 44's refit puts H100's scale-out at its
  // 0.60 floor (pulled there by DS01-DS12, docs/validation/lessons.md "Stop 44"): +12.4%, the
  // exposed DP traffic 0.95/0.60 times longer. Stop 45's refit fits it within its measured range
  // (0.756-0.96, src/hardware/scaleout_measurements.cpp): 0.7557, +7.3%. Within 1.5 points of that.
  CHECK(stated / 0.9256 - 1 == Approx(0.073).margin(0.015));
}
