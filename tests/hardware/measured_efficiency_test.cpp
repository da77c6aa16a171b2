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

  // Blackwell: nothing of its own; Hopper's values per SM and clock, and saying so.
  const MeasuredEfficiency blackwell = MeasuredKernelEfficiency("B300-SXM-288GB");
  CHECK_FALSE(blackwell.own);
  CHECK(blackwell.Find("gemm_max")->value == kTileGemmTopBf16);
  CHECK(blackwell.Find("gemm_max")->source.find("per SM and clock") != std::string::npos);

  CHECK(MeasuredKernelEfficiency("MI300X").fields.empty());
  CHECK_FALSE(MeasuredKernelEfficiency("MI300X").own);
}
