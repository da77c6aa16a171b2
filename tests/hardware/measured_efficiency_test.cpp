#include "hardware/measured_efficiency.h"

#include <catch2/catch.hpp>

using namespace paraplan;

TEST_CASE("Each family's measured kernel ceilings carry their sources", "[hardware]") {
  const MeasuredEfficiency hopper = MeasuredKernelEfficiency("H200-SXM-141GB");
  CHECK(hopper.own);
  CHECK(hopper.family == "Hopper");
  REQUIRE(hopper.Find("gemm_max") != nullptr);
  CHECK(hopper.Find("gemm_max")->value == kTileGemmTopBf16);
  CHECK(hopper.Find("fp8_gemm_max")->value == kTileGemmTopFp8);
  CHECK(hopper.Find("gemm_max")->source.find("h200-2026-11-29") != std::string::npos);
  CHECK(hopper.Find("kernel_launch_us") == nullptr);  // measured on no family
  for (const auto& [field, value] : hopper.fields) {
    INFO(field);
    CHECK_FALSE(value.source.empty());
    if (field != "gemm_half_dim" && field != "attention_half_seq") {
      CHECK(value.value > 0);
      CHECK(value.value <= kMaxDatasheetFraction);
    }
  }

  const MeasuredEfficiency ampere = MeasuredKernelEfficiency("A100");
  CHECK(ampere.own);
  CHECK(ampere.Find("gemm_max")->value == 0.82);
  CHECK(ampere.Find("link.nvlink")->value == 0.77);
  CHECK(ampere.Find("fa2_attention_fwd")->value == 0);  // FA2 is its fused kernel
  CHECK(ampere.Find("fp8_gemm_max") == nullptr);        // no fp8 on A100

  // GB300: nothing of its own; Hopper's values per SM and clock, and saying so.
  const MeasuredEfficiency gb300 = MeasuredKernelEfficiency("B300-GB300");
  CHECK_FALSE(gb300.own);
  CHECK(gb300.family == "Blackwell");
  CHECK(gb300.Find("gemm_max")->value == kTileGemmTopBf16);
  CHECK(gb300.Find("gemm_max")->carried);
  CHECK(gb300.Find("gemm_max")->source.find("per SM and clock") != std::string::npos);

  CHECK(MeasuredKernelEfficiency("MI300X").fields.empty());
  CHECK_FALSE(MeasuredKernelEfficiency("MI300X").own);
}

// Bekman's MAMF table (ml-engineering, compute/accelerator): TFLOP/s of the dense peak, B200 bf16
// 1745 / 2250, fp8 3432.5 / 4500; GB200 1822 / 2500, 3615.6 / 5000; B300 1769 / 2250,
// 3353.3 / 4500; H200 794.5 / 989 and 1453.4 / 1979. Each Blackwell ceiling is our harness's
// Hopper top times the part's MAMF fraction over H200's, by hand below.
TEST_CASE("Blackwell parts take their GEMM ceilings from the MAMF table, relative to H200",
          "[hardware]") {
  const double h200_bf16 = 794.5 / 989.0, h200_fp8 = 1453.4 / 1979.0;
  struct Row {
    const char* gpu;
    double bf16, fp8;
  };
  for (const Row& row : {Row{"B200-SXM-180GB", 1745.0 / 2250, 3432.5 / 4500},
                         Row{"B200-GB200", 1822.0 / 2500, 3615.6 / 5000},
                         Row{"B300-SXM-288GB", 1769.0 / 2250, 3353.3 / 4500}}) {
    INFO(row.gpu);
    const MeasuredEfficiency m = MeasuredKernelEfficiency(row.gpu);
    CHECK(m.own);
    CHECK(m.family == "Blackwell");
    const MeasuredValue* gemm = m.Find("gemm_max");
    const MeasuredValue* fp8 = m.Find("fp8_gemm_max");
    REQUIRE(gemm);
    REQUIRE(fp8);
    CHECK_FALSE(gemm->carried);
    CHECK(gemm->value == Approx(kTileGemmTopBf16 * row.bf16 / h200_bf16));
    CHECK(fp8->value == Approx(kTileGemmTopFp8 * row.fp8 / h200_fp8));
    CHECK(gemm->source.find("MAMF") != std::string::npos);
    // Everything else is still Hopper's, carried per SM and clock.
    CHECK(m.Find("attention_fwd")->carried);
    CHECK(m.Find("link.nvlink")->carried);
    // The fit's range scales with the ceiling.
    const MeasuredRange range = GemmFractionRange(row.gpu, "gemm_max");
    CHECK(range.lo == Approx(0.66 * row.bf16 / h200_bf16));
    CHECK(range.hi == Approx(0.84 * row.bf16 / h200_bf16));
    CHECK(range.lo < gemm->value);
    CHECK(gemm->value < range.hi);
  }
  // By hand: B200 0.725 x 0.7756 / 0.8033 = 0.700; GB200 0.725 x 0.7288 / 0.8033 = 0.658.
  CHECK(MeasuredKernelEfficiency("B200").Find("gemm_max")->value == Approx(0.700).epsilon(1e-3));
  CHECK(MeasuredKernelEfficiency("GB200").Find("gemm_max")->value == Approx(0.658).epsilon(1e-3));
  // Hopper, Ampere and a Blackwell part with no MAMF row keep their ranges.
  CHECK(GemmFractionRange("H100", "gemm_max").lo == 0.66);
  CHECK(GemmFractionRange("H100", "fp8_gemm_max").hi == 0.72);
  CHECK(GemmFractionRange("A100", "gemm_max").lo == 0.70);
  CHECK(GemmFractionRange("GB300", "gemm_max").hi == 0.84);
}
