// MX02 of docs/validation/public_runs.yaml (docs/validation/README.md, "MX01-MX02"): Llama 4 Scout
// on 64 GB200 (NeMo 25.07's performance summary) at its source's stated plan. (MX01,
// Megatron-Core's MoE README, is csv-only: the Megatron READMEs' figures are reserved for
// independent evaluation.) The row loads, states the plan its source gives, carries the
// conversion's step time, and predicts within the in-sample band the set's MoE rows hold.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "plan/framework.h"
#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

std::vector<RunSpec> MxRows() {
  std::vector<RunSpec> rows;
  for (RunSpec& run : test::PublicRowsWithPrefix('M')) {
    if (run.id.rfind("MX", 0) == 0) rows.push_back(std::move(run));
  }
  return rows;
}

}  // namespace

TEST_CASE("MX02: Llama 4 Scout from NeMo 25.07's summary, MX01 stays out of the runs file",
          "[validate][public]") {
  const std::vector<RunSpec> rows = MxRows();
  REQUIRE(rows.size() == 1);

  const RunSpec& scout = test::FindRow(rows, "MX02");
  CHECK(scout.framework == Framework::kNemo);
  CHECK(scout.model.IsMoe());
  CHECK(scout.cluster.gpu.name.find("GB200") != std::string::npos);
  CHECK(scout.gpus == 64);
  CHECK(test::FixedKnob(scout.plan.ep) == 16);
  CHECK(test::FixedKnob(scout.plan.dp) == 64);
  CHECK(test::FixedKnob(scout.plan.global_batch) == 1024);
  // step = 1,024 sequences of 8,192 tokens over 13,783 tokens/s on each of 64 GPUs
  CHECK(scout.measured.at("step_time_s") == Approx(1024.0 * 8192 / (13783.0 * 64)).epsilon(1e-4));
}

TEST_CASE("MX02: predicted within 15% of the measured step", "[validate][public]") {
  const std::vector<RunSpec> rows = MxRows();
  // Shipped stop-41 efficiencies: MX02 -4.7%.
  for (const char* id : {"MX02"}) {
    INFO(id);
    const double measured = test::FindRow(rows, id).measured.at("step_time_s");
    const double predicted = test::PredictedStep(rows, id);
    CHECK(std::abs(predicted / measured - 1.0) < 0.15);
  }
}
