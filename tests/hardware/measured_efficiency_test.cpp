#include "hardware/measured_efficiency.h"

#include <catch2/catch.hpp>

#include "config/resolve.h"

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
// 1745 / 2250, fp8 3432.5 / 4500; GB200 1822 / 2500, 3615.6 / 5000; H200 794.5 / 989 and
// 1453.4 / 1979, stated in each part's hardware file (gpu.measured). Each Blackwell ceiling is our
// harness's Hopper top times the part's MAMF fraction over H200's, by hand below.
TEST_CASE("B200 and GB200 take their bf16 ceilings from MAMF, their fp8 from TE's fp8 / bf16 gain",
          "[hardware][config]") {
  const double h200_bf16 = 794.5 / 989.0, h200_fp8 = 1453.4 / 1979.0;
  struct Row {
    const char* cluster;
    double bf16, fp8;
  };
  for (const Row& row : {Row{"dgx-b200", 1745.0 / 2250, 3432.5 / 4500},
                         Row{"gb200-nvl72", 1822.0 / 2500, 3615.6 / 5000}}) {
    INFO(row.cluster);
    const GpuSpec gpu = LoadCluster(row.cluster).gpu;
    const MeasuredEfficiency m = MeasuredKernelEfficiency(gpu);
    CHECK(m.own);
    CHECK(m.family == "Blackwell");
    const MeasuredValue* gemm = m.Find("gemm_max");
    const MeasuredValue* fp8 = m.Find("fp8_gemm_max");
    REQUIRE(gemm);
    REQUIRE(fp8);
    CHECK_FALSE(gemm->carried);
    CHECK(gemm->value == Approx(kTileGemmTopBf16 * row.bf16 / h200_bf16));
    // fp8: MAMF's row is not stated; TransformerEngine's FP8 / BF16 gain (B300 SXM6 AC 1.9234
    // over H200 NVL 1.9046, a step's shapes) on the part's own bf16 ceiling.
    CHECK(fp8->value ==
          Approx(gemm->value * (kTileGemmTopFp8 / kTileGemmTopBf16) * 1.9234 / 1.9046));
    CHECK(fp8->value < kTileGemmTopFp8 * row.fp8 / h200_fp8);  // below MAMF's fp8 row
    CHECK(fp8->source.find("B300 SXM6 AC") != std::string::npos);
    CHECK(gemm->source.find("Maximum Achievable Matmul FLOPS") != std::string::npos);
    CHECK(gemm->source.find("torch") != std::string::npos);  // the software it ran
    // Memory and links are still Hopper's, carried per SM and clock.
    CHECK(m.Find("memory_bandwidth")->carried);
    CHECK(m.Find("link.nvlink")->carried);
    // The fit's range scales with the ceiling.
    const MeasuredRange range = GemmFractionRange(gpu, "gemm_max");
    CHECK(range.lo == Approx(0.66 * row.bf16 / h200_bf16));
    CHECK(range.hi == Approx(0.84 * row.bf16 / h200_bf16));
    CHECK(range.lo < gemm->value);
    CHECK(gemm->value < range.hi);
    // By name alone (no hardware file) the family's values: Hopper's, carried.
    CHECK(MeasuredKernelEfficiency(gpu.name).Find("gemm_max")->carried);
    CHECK(GemmFractionRange(gpu.name, "gemm_max").lo == 0.66);
  }
  // By hand: B200 0.725 x 0.7756 / 0.8033 = 0.700; GB200 0.725 x 0.7288 / 0.8033 = 0.658.
  const auto gemm = [](const char* cluster) {
    return MeasuredKernelEfficiency(LoadCluster(cluster).gpu).Find("gemm_max")->value;
  };
  CHECK(gemm("dgx-b200") == Approx(0.700).epsilon(1e-3));
  CHECK(gemm("gb200-nvl72") == Approx(0.658).epsilon(1e-3));
  // fp8 by hand: 0.700 x 0.675 / 0.725 x 1.0099 = 0.658 (MAMF's fp8 row gave 0.701); GB200 0.618
  // (0.665). The fit's fp8 range scales with it.
  const auto fp8 = [](const char* cluster) {
    return MeasuredKernelEfficiency(LoadCluster(cluster).gpu).Find("fp8_gemm_max")->value;
  };
  CHECK(fp8("dgx-b200") == Approx(0.658).epsilon(2e-3));
  CHECK(fp8("gb200-nvl72") == Approx(0.618).epsilon(2e-3));
  CHECK(GemmFractionRange(LoadCluster("dgx-b200").gpu, "fp8_gemm_max").lo ==
        Approx(0.51 * fp8("dgx-b200") / kTileGemmTopFp8));
  // Hopper, Ampere and a Blackwell part with no GEMM rate keep their ranges.
  CHECK(GemmFractionRange("H100", "gemm_max").lo == 0.66);
  CHECK(GemmFractionRange("H100", "fp8_gemm_max").hi == 0.72);
  CHECK(GemmFractionRange("A100", "gemm_max").lo == 0.70);
  CHECK(GemmFractionRange(LoadCluster("gb300-nvl72").gpu, "gemm_max").hi == 0.84);
}

// TransformerEngine's GEMM benchmark (NVIDIA/TransformerEngine @ 1609c89,
// docs/examples/gemm_profiling/gemm_profiling.rst): a training step's 12 linear GEMMs per layer
// (19.17 TFLOP), pre-quantized, on a B300 SXM6 AC and an H200 NVL: bf16 13.102 / 31.968 ms, fp8
// per-tensor 6.812 / 16.785 ms, so 1463.3 / 2250 and 2814.6 / 4500 against the NVL's 599.7 / 835.5
// and 1142.3 / 1670.5. B300's ceilings are our harness's tops times the ratio of the fractions.
TEST_CASE("B300 takes its GEMM ceilings from TransformerEngine's benchmark, relative to H200 NVL",
          "[hardware][config]") {
  const MeasuredEfficiency m = MeasuredKernelEfficiency(LoadCluster("dgx-b300").gpu);
  CHECK(m.own);
  const MeasuredValue* gemm = m.Find("gemm_max");
  const MeasuredValue* fp8 = m.Find("fp8_gemm_max");
  REQUIRE(gemm);
  REQUIRE(fp8);
  CHECK_FALSE(gemm->carried);
  CHECK(gemm->value == Approx(kTileGemmTopBf16 * (1463.3 / 2250) / (599.7 / 835.5)));
  CHECK(fp8->value == Approx(kTileGemmTopFp8 * (2814.6 / 4500) / (1142.3 / 1670.5)));
  // By hand: 0.725 x 0.6504 / 0.7178 = 0.657; 0.675 x 0.6255 / 0.6838 = 0.617. Below the MAMF
  // ceilings it replaced (0.710 / 0.685): a step's shapes, not the best of a search.
  CHECK(gemm->value == Approx(0.657).epsilon(1e-3));
  CHECK(fp8->value == Approx(0.617).epsilon(1e-3));
  CHECK(gemm->source.find("TransformerEngine") != std::string::npos);
  CHECK(fp8->source.find("FP8Current") != std::string::npos);
  // The fit's range scales with the ceiling, as for the MAMF parts.
  const MeasuredRange range = GemmFractionRange(LoadCluster("dgx-b300").gpu, "fp8_gemm_max");
  CHECK(range.lo == Approx(0.51 * (2814.6 / 4500) / (1142.3 / 1670.5)));
  CHECK(range.lo < fp8->value);
  CHECK(fp8->value < range.hi);
}

// cuDNN's SDPA training benchmark (NVIDIA/cudnn-frontend @ df73764), cuDNN 9.19.1 on all three
// parts, causal bf16 at 32K tokens: H200 688 / 581 TFLOP/s forward / backward of 989; GB200 1720
// / 1473 of 2500; GB300 2014 / 1549 of 2500.
TEST_CASE("GB200 and GB300 take their attention ceilings from cuDNN's benchmark, relative to H200",
          "[hardware][config]") {
  const MeasuredEfficiency gb200 = MeasuredKernelEfficiency(LoadCluster("gb200-nvl72").gpu);
  const MeasuredValue* fwd = gb200.Find("attention_fwd");
  const MeasuredValue* bwd = gb200.Find("attention_bwd");
  REQUIRE(fwd);
  REQUIRE(bwd);
  CHECK_FALSE(fwd->carried);
  // 0.695 x (1720 / 2500) / (688 / 989) = 0.687; 0.535 x (1473 / 2500) / (581 / 989) = 0.537.
  CHECK(fwd->value == Approx(0.695 * (1720.0 / 2500) / (688.0 / 989)));
  CHECK(fwd->value == Approx(0.687).epsilon(1e-3));
  CHECK(bwd->value == Approx(0.537).epsilon(1e-3));
  CHECK(fwd->source.find("cuDNN 9.19.1") != std::string::npos);
  CHECK(fwd->source.find("2026-02-26") != std::string::npos);
  // GB300's faster exponential unit shows in the forward: 0.695 x 0.8056 / 0.6956 = 0.805.
  const MeasuredEfficiency gb300 = MeasuredKernelEfficiency(LoadCluster("gb300-nvl72").gpu);
  CHECK(gb300.own);
  CHECK(gb300.Find("attention_fwd")->value == Approx(0.805).epsilon(1e-3));
  CHECK(gb300.Find("gemm_max")->carried);  // no GEMM rate of GB300's own
  // B200's file states no attention rate: Hopper's, carried.
  CHECK(MeasuredKernelEfficiency(LoadCluster("dgx-b200").gpu).Find("attention_fwd")->carried);
}

TEST_CASE("A measured rate is a fraction of the part's own datasheet rate", "[hardware]") {
  GpuSpec gpu;
  gpu.name = "B200-SXM-180GB";
  gpu.peak_tflops.bf16 = 2000;
  gpu.memory_bandwidth_GBps = 8000;
  // No Hopper counterpart: the fraction itself is the ceiling.
  gpu.measured.push_back({"memory_bandwidth", 7000, 0, 0, "a copy benchmark", "", "CUDA 12.8", ""});
  // With one: our harness's Hopper value times the ratio of the two fractions.
  gpu.measured.push_back(
      {"gemm_max", 1500, 700, 1000, "a GEMM benchmark", "2026-01", "cuBLAS", ""});
  const MeasuredEfficiency m = MeasuredKernelEfficiency(gpu);
  CHECK(m.Find("memory_bandwidth")->value == Approx(0.875));
  CHECK(m.Find("memory_bandwidth")->source.find("its own ceiling") != std::string::npos);
  CHECK(m.Find("gemm_max")->value == Approx(kTileGemmTopBf16 * 0.75 / 0.7));
  CHECK(m.Find("gemm_max")->source.find("2026-01, cuBLAS") != std::string::npos);
  CHECK(m.Find("attention_fwd")->carried);
  CHECK(DatasheetRateFor(gpu, "fp8_gemm_max") == 0);
  // A ratio that would pass the datasheet peak is clamped to it.
  gpu.measured[1].hopper_rate = 300;
  CHECK(MeasuredKernelEfficiency(gpu).Find("gemm_max")->value == kMaxDatasheetFraction);
}
