#include "hardware/profile_lookup.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/error.h"

namespace paraplan {
namespace {

CalibrationProfile GemmProfile() {
  CalibrationProfile p;
  // Throughput grows with size, as on real GPUs.
  p.gemm["bf16"] = {{1024, 1024, 1024, 300.0},
                    {2048, 2048, 2048, 500.0},
                    {4096, 4096, 4096, 650.0},
                    {8192, 8192, 8192, 700.0}};
  return p;
}

TEST_CASE("gemm lookup returns measured shapes exactly", "[calib]") {
  bool found = false;
  CHECK(ProfileGemmTflops(GemmProfile(), "bf16", 4096, 4096, 4096, &found) == 650.0);
  CHECK(found);
}

TEST_CASE("gemm lookup interpolates monotonically between shapes", "[calib]") {
  const CalibrationProfile p = GemmProfile();
  bool found = false;
  double previous = 0;
  for (int64_t s : {1024, 1448, 2048, 2896, 4096, 5793, 8192}) {
    const double tflops = ProfileGemmTflops(p, "bf16", s, s, s, &found);
    CHECK(found);
    CHECK(tflops >= previous);
    CHECK(tflops >= 300.0);
    CHECK(tflops <= 700.0);
    previous = tflops;
  }
  // Between two neighbours, strictly inside their range.
  const double mid = ProfileGemmTflops(p, "bf16", 2896, 2896, 2896, &found);
  CHECK(mid > 500.0);
  CHECK(mid < 650.0);
}

TEST_CASE("gemm lookup reports missing data", "[calib]") {
  bool found = true;
  CHECK(ProfileGemmTflops(GemmProfile(), "fp8", 1024, 1024, 1024, &found) == 0.0);
  CHECK_FALSE(found);
  found = true;
  CHECK(ProfileGemmTflops(GemmProfile(), "bf16", 0, 1024, 1024, &found) == 0.0);
  CHECK_FALSE(found);
  CHECK(ProfileGemmTflops(GemmProfile(), "bf16", 1000, 1000, 1000, nullptr) > 0.0);
}

TEST_CASE("collective lookup and time", "[calib]") {
  CalibrationProfile p;
  p.collectives["all_reduce"]["nvlink"] = {10.0, 400.0, 0.999, 20, 0, {}};
  CollectiveFit fit;
  REQUIRE(ProfileCollective(p, "all_reduce", "nvlink", &fit));
  CHECK(fit.bandwidth_GBps == 400.0);
  CHECK_FALSE(ProfileCollective(p, "all_reduce", "scaleout", &fit));
  CHECK_FALSE(ProfileCollective(p, "all_gather", "nvlink", &fit));
  // 400 GB/s = 4e5 bytes/µs: 4e8 bus bytes take 1000 µs plus the latency.
  CHECK(CollectiveTimeUs(fit, 4e8) == Approx(1010.0));
}

TEST_CASE("a measured collective: curve inside its sizes, line outside, latency by steps",
          "[calib]") {
  CollectiveFit fit{10.0, 400.0, 0.999, 3, 4, {{1000, 20.0}, {4000, 40.0}, {16000, 100.0}}};
  // At 4 ranks (as measured): the curve; all-gather's bus factor 3/4 cancels.
  CHECK(MeasuredCollectiveUs(fit, CollectiveOp::kAllGather, 4000, 4) == Approx(40.0));
  CHECK(MeasuredCollectiveUs(fit, CollectiveOp::kAllGather, 2000, 4) ==
        Approx(20.0 * std::sqrt(2.0)));  // half-way in ln size between 20 and 40 µs
  // Outside the sweep: 10 µs + 3/4 of the bytes at 400 GB/s (4e5 bytes per µs).
  CHECK(MeasuredCollectiveUs(fit, CollectiveOp::kAllGather, 4e8, 4) == Approx(10.0 + 3e8 / 4e5));
  // On 8 ranks: 7 latency steps instead of 3, bus bytes 7/8 of the size (4000 x 3/4 = 3000 bus
  // bytes is the measured 4,000-byte point).
  CHECK(MeasuredCollectiveUs(fit, CollectiveOp::kAllGather, 3000.0 * 8 / 7, 8) ==
        Approx(40.0 + 10.0 * (7.0 / 3.0 - 1.0)));
  // Send/recv: one step, bus factor 1; fewer ranks than 2 move nothing.
  CHECK(MeasuredCollectiveUs(fit, CollectiveOp::kAllGather, 4000, 1) == 0.0);
}

TEST_CASE("nccl-tests bus bandwidth factors", "[calib]") {
  CHECK(BusBandwidthFactor("all_reduce", 8) == Approx(1.75));
  CHECK(BusBandwidthFactor("all_gather", 8) == Approx(0.875));
  CHECK(BusBandwidthFactor("reduce_scatter", 4) == Approx(0.75));
  CHECK(BusBandwidthFactor("all_to_all", 2) == Approx(0.5));
  CHECK(BusBandwidthFactor("send_recv", 2) == 1.0);
  CHECK(BusBandwidthFactor("all_reduce", 1) == 1.0);
  CHECK_THROWS_AS(BusBandwidthFactor("broadcast", 8), InputError);
}

}  // namespace
}  // namespace paraplan

namespace paraplan {
namespace {

CalibrationProfile AttentionProfile() {
  CalibrationProfile p;
  p.attention = {{2048, 8, 128, true, 450.0, 370.0},
                 {8192, 8, 128, true, 590.0, 475.0},
                 {32768, 8, 128, true, 650.0, 0.0}};  // no backward measured at 32K
  return p;
}

TEST_CASE("attention lookup: exact points, bounded interpolation, missing direction", "[calib]") {
  const CalibrationProfile p = AttentionProfile();
  bool found = false;
  CHECK(ProfileAttentionTflops(p, 8192, 8, 128, false, &found) == 590.0);
  CHECK(found);
  CHECK(ProfileAttentionTflops(p, 2048, 8, 128, true, &found) == 370.0);
  const double mid = ProfileAttentionTflops(p, 4096, 8, 128, false, &found);
  CHECK(found);
  CHECK(mid > 450.0);
  CHECK(mid < 650.0);
  // The 32K point has no backward rate: the lookup uses the others, not a zero.
  CHECK(ProfileAttentionTflops(p, 32768, 8, 128, true, &found) == Approx(454.0).epsilon(1e-9));
  CHECK(ProfileAttentionTflops(CalibrationProfile{}, 4096, 8, 128, false, &found) == 0);
  CHECK_FALSE(found);
  CHECK(ProfileAttentionTflops(p, 0, 8, 128, false, &found) == 0);
  CHECK_FALSE(found);
}

}  // namespace
}  // namespace paraplan
