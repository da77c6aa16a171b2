#include "hardware/efficiency_transfer.h"

#include <catch2/catch.hpp>
#include <string>

#include "config/resolve.h"
#include "hardware/measured_efficiency.h"

using namespace paraplan;

namespace {

GpuSpec NamedGpu(const std::string& name, int64_t sms) {
  GpuSpec gpu;
  gpu.name = name;
  gpu.sm_count = sms;
  return gpu;
}

std::string SourceOf(const TransferredEfficiency& t, const std::string& field) {
  for (const auto& [name, source] : t.sources) {
    if (name == field) return source;
  }
  return "";
}

}  // namespace

TEST_CASE("The transfer rule: the target's ceiling x the reference's fitted / measured",
          "[hardware]") {
  const MeasuredValue reference{0.8, "ref"};
  const MeasuredValue target{0.6, "tgt"};
  SECTION("the ratio") {
    const TransferredValue t = TransferFraction(0.7, &reference, &target, true);
    CHECK(t.measured);
    CHECK(t.value == Approx(0.6 * 0.7 / 0.8));
  }
  SECTION("clamped to a fraction of the datasheet") {
    const MeasuredValue high{0.95, "tgt"};
    const TransferredValue t = TransferFraction(0.9, &target, &high, true);
    CHECK(0.95 * 0.9 / 0.6 > 1.0);
    CHECK(t.value == kMaxDatasheetFraction);
  }
  SECTION("no measurement of the target's own: the fitted value, per SM and clock") {
    CHECK(TransferFraction(0.7, &reference, &target, false).value == 0.7);
    CHECK_FALSE(TransferFraction(0.7, &reference, &target, false).measured);
    CHECK(TransferFraction(0.7, &reference, nullptr, true).value == 0.7);
  }
  SECTION("no ceiling of the reference's: the target's ceiling alone") {
    CHECK(TransferFraction(0.7, nullptr, &target, true).value == 0.6);
    const MeasuredValue zero{0, "same kernel"};
    CHECK(TransferFraction(0, &zero, &target, true).value == 0.6);
  }
  SECTION("0 = the fused kernel itself stays 0") {
    const MeasuredValue zero{0, "same kernel"};
    const TransferredValue t = TransferFraction(0.36, &reference, &zero, true);
    CHECK(t.value == 0);
    CHECK(t.measured);
  }
}

TEST_CASE("H100's fit to A100 keeps its framework shortfall, not its fraction", "[hardware]") {
  // Hand-made fitted numbers of an H100; the two ceilings are the measured ones.
  Efficiency fitted;
  fitted.gemm_max = 0.66;
  fitted.fp8_gemm_max = 0.59;
  fitted.attention_fwd = 0.695;  // not fitted: at its measured ceiling
  fitted.attention_bwd = 0.50;
  fitted.memory_bandwidth = 0.86;
  fitted.kernel_launch_us = 7;
  fitted.step_overhead_s = 0.25;
  fitted.fa2_attention_fwd = 0.36;
  fitted.fa2_attention_bwd = 0.34;
  fitted.link = {{"nvlink", 0.80}, {"scaleout", 0.79}};
  const GpuSpec h100 = NamedGpu("H100-SXM5-80GB", 132);
  const GpuSpec a100 = NamedGpu("A100-SXM4-80GB", 108);
  const MeasuredEfficiency hopper = MeasuredKernelEfficiency("H100");
  const MeasuredEfficiency ampere = MeasuredKernelEfficiency("A100");
  REQUIRE(hopper.own);
  REQUIRE(ampere.own);
  const TransferredEfficiency t =
      TransferEfficiency(fitted, "H100", h100, a100, {"nvlink", "scaleout", "rail"});
  const Efficiency& e = t.efficiency;
  const double shortfall = 0.66 / hopper.Find("gemm_max")->value;           // 0.66 / 0.725
  CHECK(e.gemm_max == Approx(ampere.Find("gemm_max")->value * shortfall));  // 0.82 x: 0.746
  CHECK(e.gemm_max == Approx(0.7465).epsilon(1e-3));
  CHECK(e.attention_fwd == Approx(ampere.Find("attention_fwd")->value));  // ratio 1: A100's own
  CHECK(e.attention_bwd == Approx(0.55 * 0.50 / 0.535));
  CHECK(e.memory_bandwidth == Approx(0.85));
  CHECK(e.fp8_gemm_max == 0.59);    // A100 has no fp8 measurement: carried
  CHECK(e.fa2_attention_fwd == 0);  // FlashAttention-2 is Ampere's fused kernel
  CHECK(e.link.at("nvlink") == Approx(0.77));
  CHECK(e.link.at("scaleout") == Approx(0.85 * 0.79 / 0.88));
  CHECK(e.link.at("rail") == 0.8);  // measured nowhere: the reference's (default) fraction
  CHECK(e.kernel_launch_us == 7);   // host-side: absolute
  CHECK(e.step_overhead_s == 0.25);
  CHECK(e.gemm_half_dim == Approx(592.0 * 108 / 132));
  // Each number says where it comes from.
  CHECK(SourceOf(t, "gemm_max").find("A100-SXM4-80GB's measured 0.82") != std::string::npos);
  CHECK(SourceOf(t, "gemm_max").find("NVIDIA Deep Learning Performance Guide") !=
        std::string::npos);
  CHECK(SourceOf(t, "gemm_max").find("H100's fitted / measured (0.66 / 0.725") !=
        std::string::npos);
  CHECK(SourceOf(t, "fp8_gemm_max").find("per SM and clock") != std::string::npos);
  CHECK(SourceOf(t, "fa2_attention_fwd").find("fused kernel") != std::string::npos);
  CHECK(SourceOf(t, "kernel_launch_us").find("host") != std::string::npos);
  CHECK(SourceOf(t, "link.rail").find("bus-bandwidth fraction") != std::string::npos);
  CHECK(t.sources.size() == 14);  // 11 fields and 3 tiers
}

TEST_CASE("A fit of A100 to Hopper scales back up to Hopper's own ceilings", "[hardware]") {
  Efficiency fitted;
  fitted.gemm_max = 0.74;
  fitted.fa2_attention_fwd = 0;  // Ampere: the fused kernel
  const TransferredEfficiency t = TransferEfficiency(
      fitted, "A100", NamedGpu("A100-SXM4-80GB", 108), NamedGpu("H100-SXM5-80GB", 132), {});
  CHECK(t.efficiency.gemm_max == Approx(0.725 * 0.74 / 0.82));
  CHECK(t.efficiency.fa2_attention_fwd == Approx(0.36));  // Hopper's own FA2 fraction
  CHECK(SourceOf(t, "fa2_attention_fwd").find("none: the ceiling alone") != std::string::npos);
}

TEST_CASE("A family with no measured ceiling takes the fitted fractions per SM and clock",
          "[hardware]") {
  Efficiency fitted;
  fitted.gemm_max = 0.66;
  fitted.link = {{"scaleout", 0.79}};
  const TransferredEfficiency t = TransferEfficiency(
      fitted, "H100", NamedGpu("H100-SXM5-80GB", 132), NamedGpu("B300-GB300", 160), {"scaleout"});
  CHECK(t.efficiency.gemm_max == 0.66);  // exactly: no roundoff through a ratio
  CHECK(t.efficiency.link.at("scaleout") == 0.79);
  CHECK(SourceOf(t, "gemm_max").find("per SM and clock") != std::string::npos);
  CHECK(SourceOf(t, "gemm_max").find("no measured kernel ceiling of Blackwell's own") !=
        std::string::npos);
  // The attention curve's half-point is a length along one sequence, carried as it is: its
  // source names no SM count (it is not scaled by one, unlike gemm_half_dim).
  CHECK(t.efficiency.attention_half_seq == fitted.attention_half_seq);
  CHECK(SourceOf(t, "attention_half_seq").find("per SM") == std::string::npos);
  CHECK(SourceOf(t, "attention_half_seq").find("B300-GB300") != std::string::npos);
}

TEST_CASE(
    "B300 takes its measured GEMM ceiling times H100's shortfall, its other fractions per clock",
    "[hardware][config]") {
  Efficiency fitted;
  fitted.gemm_max = 0.66;
  fitted.fp8_gemm_max = 0.59;
  fitted.attention_fwd = 0.6;
  const GpuSpec b300 = LoadCluster("dgx-b300").gpu;
  const TransferredEfficiency t =
      TransferEfficiency(fitted, "H100", NamedGpu("H100-SXM5-80GB", 132), b300, {});
  const MeasuredEfficiency measured = MeasuredKernelEfficiency(b300);
  CHECK(t.efficiency.gemm_max ==
        Approx(measured.Find("gemm_max")->value * 0.66 / kTileGemmTopBf16));
  CHECK(t.efficiency.fp8_gemm_max ==
        Approx(measured.Find("fp8_gemm_max")->value * 0.59 / kTileGemmTopFp8));
  CHECK(t.efficiency.attention_fwd == 0.6);  // carried: no B300 attention measurement
  CHECK(SourceOf(t, "gemm_max").find("TransformerEngine") != std::string::npos);
  CHECK(SourceOf(t, "attention_fwd").find("per SM and clock") != std::string::npos);
  // The same part without its file's rates (a GpuSpec built by name): Hopper's, per SM and clock.
  const TransferredEfficiency bare = TransferEfficiency(
      fitted, "H100", NamedGpu("H100-SXM5-80GB", 132), NamedGpu("B300-SXM-288GB", 160), {});
  CHECK(bare.efficiency.gemm_max == 0.66);
  CHECK(SourceOf(bare, "gemm_max").find("per SM and clock") != std::string::npos);
}

TEST_CASE("A GPU nobody fitted takes its file's measured attention rate, else Hopper's per clock",
          "[hardware][config]") {
  Efficiency fitted;
  fitted.attention_fwd = 0.60;
  fitted.attention_bwd = 0.50;
  // GB300's file states cuDNN's forward and backward rates against H200's on the same release.
  const GpuSpec gb300 = LoadCluster("gb300-nvl72").gpu;
  const TransferredEfficiency t =
      TransferEfficiency(fitted, "H100", NamedGpu("H100-SXM5-80GB", 132), gb300, {});
  const MeasuredEfficiency measured = MeasuredKernelEfficiency(gb300);
  CHECK(t.efficiency.attention_fwd == Approx(measured.Find("attention_fwd")->value * 0.60 / 0.695));
  CHECK(t.efficiency.attention_bwd == Approx(measured.Find("attention_bwd")->value * 0.50 / 0.535));
  CHECK(t.efficiency.attention_fwd > 0.60);  // Blackwell Ultra's exponential unit
  CHECK(SourceOf(t, "attention_fwd").find("cuDNN's SDPA training benchmark") != std::string::npos);
  // Without it (B200's file states none): the fitted fraction, per SM and clock.
  const TransferredEfficiency b200 = TransferEfficiency(
      fitted, "H100", NamedGpu("H100-SXM5-80GB", 132), LoadCluster("dgx-b200").gpu, {});
  CHECK(b200.efficiency.attention_fwd == 0.60);
  CHECK(SourceOf(b200, "attention_fwd").find("per SM and clock") != std::string::npos);
}
