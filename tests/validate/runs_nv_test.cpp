// Stop 43's third-party Hopper and Blackwell rows (branch h45hopper; docs/validation/README.md,
// "NV01-NV12"): Google's A3 Mega NeMo examples on H100 over GPUDirect-TCPXO, and MLPerf v6.0's
// GPT-OSS 20B as Lambda, Dell, Supermicro and HPE measured it on their own machines.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "plan/framework.h"
#include "validate/public_rows.h"

using namespace paraplan;

namespace {

std::vector<RunSpec> NvRows() {
  std::vector<RunSpec> rows;
  for (RunSpec& run : test::PublicRowsWithPrefix('N')) {
    if (run.id.rfind("NV", 0) == 0) rows.push_back(std::move(run));
  }
  return rows;
}

}  // namespace

TEST_CASE("NV01-NV03: A3 Mega's H100 NeMo examples load on the TCPXO cluster and predict near",
          "[validate][public][nv]") {
  const std::vector<RunSpec> rows = NvRows();
  REQUIRE(rows.size() == 12);
  for (const char* id : {"NV01", "NV02", "NV03"}) {
    INFO(id);
    const RunSpec& run = test::FindRow(rows, id);
    CHECK(run.framework == Framework::kNemo);
    CHECK(run.cluster.name == "gcp-a3mega-h100");
    CHECK_FALSE(run.evaluation_only);
    // Each plan's DP x TP x PP x CP covers the GPUs.
    const int64_t cp = test::FixedKnob(run.plan.cp) > 0 ? test::FixedKnob(run.plan.cp) : 1;
    CHECK(test::FixedKnob(run.plan.dp) * test::FixedKnob(run.plan.tp) *
              test::FixedKnob(run.plan.pp) * cp ==
          run.gpus);
    // At conversion -4.5, +1.6 and -7.1% with the shipped efficiencies.
    const double ratio = test::PredictedStep(rows, id) / run.measured.at("step_time_s");
    CHECK(ratio > 0.88);
    CHECK(ratio < 1.08);
  }
}

TEST_CASE("NV04-NV06: three submitters' one-node B200 GPT-OSS runs agree, and paraplan is fast",
          "[validate][public][nv]") {
  const std::vector<RunSpec> rows = NvRows();
  const double lambda = test::FindRow(rows, "NV04").measured.at("step_time_s");
  const double dell = test::FindRow(rows, "NV05").measured.at("step_time_s");
  const double supermicro = test::FindRow(rows, "NV06").measured.at("step_time_s");
  // One recipe on three machines: within 2% of each other (0.4532, 0.4529, 0.4603 s).
  CHECK(supermicro / dell < 1.02);
  CHECK(lambda / dell == Approx(1.0).epsilon(0.002));
  // The same plan predicts the same step on all three; about a tenth short, as F01 on GB200 (a
  // fifth before stop 44 counted TE's grouped GEMM as one launch for GPT-OSS 20B's 32 local
  // experts: docs/cost-model.md, "Transformer Engine's grouped GEMM is a per-expert loop").
  const double predicted = test::PredictedStep(rows, "NV04");
  CHECK(test::PredictedStep(rows, "NV05") == Approx(predicted));
  CHECK(predicted / lambda > 0.80);
  CHECK(predicted / lambda < 0.97);
}

TEST_CASE("NV07-NV12: GB300 and B300 rows stay out of the fit", "[validate][public][nv]") {
  const std::vector<RunSpec> rows = NvRows();
  for (const char* id : {"NV07", "NV08", "NV09", "NV10", "NV11", "NV12"}) {
    INFO(id);
    CHECK(test::FindRow(rows, id).evaluation_only);
  }
  for (const char* id : {"NV04", "NV05", "NV06"}) {
    INFO(id);
    CHECK_FALSE(test::FindRow(rows, id).evaluation_only);
  }
  // HPE's 16 and 32 GB300 at the same work per GPU: the measured step is flat (0.3536, 0.3517 s).
  const double at16 = test::FindRow(rows, "NV07").measured.at("step_time_s");
  const double at32 = test::FindRow(rows, "NV08").measured.at("step_time_s");
  CHECK(at32 / at16 == Approx(1.0).epsilon(0.01));
}
