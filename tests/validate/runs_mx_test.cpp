// MX01-MX02 of docs/validation/public_runs.yaml (docs/validation/README.md, "MX01-MX02"): two MoE
// models new to the set's MoE rows at their sources' stated plans. MX01: Mixtral 8x7B on 64 DGX
// H100 (Megatron-Core v0.8's MoE README: 438 TFLOP/s at its reference mapping, converted with
// Megatron-LM's own FLOP count); MX02: Llama 4 Scout on 64 GB200 (NeMo 25.07's performance
// summary). The rows load, state the plans their sources give, carry the conversions' step times,
// and predict within the in-sample band the set's MoE rows hold.
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

// Megatron-LM's num_floating_point_operations per sequence (megatron/training/training.py at
// 0b981f9c53, in core_r0.8.0): 12 s L h^2 [(1 + g/n + s/h) q/h + (ffn/h) k (3/2) + V / (2 L h)].
double MegatronFlopsPerSequence(double s, double layers, double h, double heads, double groups,
                                double ffn, double top_k, double vocab) {
  return 12.0 * s * layers * h * h *
         ((1.0 + groups / heads + s / h) + ffn / h * top_k * 1.5 + vocab / (2.0 * layers * h));
}

}  // namespace

TEST_CASE("MX01-MX02: MoE rows from Megatron-Core's MoE README and NeMo 25.07's summary",
          "[validate][public]") {
  const std::vector<RunSpec> rows = MxRows();
  REQUIRE(rows.size() == 2);

  const RunSpec& mixtral = test::FindRow(rows, "MX01");
  CHECK(mixtral.framework == Framework::kMegatron);
  CHECK(mixtral.model.IsMoe());
  CHECK(mixtral.cluster.gpu.name.find("H100") != std::string::npos);
  CHECK(mixtral.gpus == 64);
  CHECK(test::FixedKnob(mixtral.plan.tp) == 1);
  CHECK(test::FixedKnob(mixtral.plan.ep) == 8);
  CHECK(test::FixedKnob(mixtral.plan.pp) == 4);
  CHECK(test::FixedKnob(mixtral.plan.vpp) == 8);
  CHECK(test::FixedKnob(mixtral.plan.global_batch) == 256);
  // 438 TFLOP/s per GPU with Megatron-LM's own count: 3.102 s per step of 256 x 4,096 tokens.
  const double flops = MegatronFlopsPerSequence(4096, 32, 4096, 32, 8, 14336, 2, 32000);
  CHECK(flops == Approx(3.3967e14).epsilon(1e-4));
  CHECK(mixtral.measured.at("step_time_s") == Approx(256 * flops / (438e12 * 64)).epsilon(2e-4));

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

TEST_CASE("MX01-MX02: predicted within 15% of the measured step", "[validate][public]") {
  const std::vector<RunSpec> rows = MxRows();
  // Shipped stop-41 efficiencies: MX01 -5.5%, MX02 -4.7%.
  for (const char* id : {"MX01", "MX02"}) {
    INFO(id);
    const double measured = test::FindRow(rows, id).measured.at("step_time_s");
    const double predicted = test::PredictedStep(rows, id);
    CHECK(std::abs(predicted / measured - 1.0) < 0.15);
  }
}
