// Step-time bands: percentiles of a residual list and which band each GPU gets. That the shipped
// bands are today's validation residuals is checked in public_runs_cv_test.cpp, on the
// cross-validations it computes anyway.
#include "validate/step_band.h"

#include <catch2/catch.hpp>

#include "hardware/gpu_family.h"

namespace paraplan {
namespace {

TEST_CASE("percentile band of a residual list", "[validate][band]") {
  const StepTimeBand b = ComputeStepTimeBand("X", {10, -10, 0, 20, -20, 5, -5, 15, -15, 30, 25});
  CHECK(b.runs == 11);
  CHECK(b.error_p10_pct == Approx(-15));
  CHECK(b.error_p90_pct == Approx(25));
  CHECK(b.LowFactor() == Approx(1 / 1.25));
  CHECK(b.HighFactor() == Approx(1 / 0.85));
  CHECK_THROWS(ComputeStepTimeBand("X", {}));
}

TEST_CASE("families without runs borrow their data family's band", "[validate][band]") {
  const auto h200 = StepTimeBandFor("H200-SXM-141GB");
  REQUIRE(h200);
  CHECK(h200->family == "H200");
  CHECK(h200->data_family == "H100");
  CHECK_FALSE(StepTimeBandFor("MI300X"));
}

TEST_CASE("a GPU nobody fitted gets the leave-one-GPU-family-out band, never none",
          "[validate][band]") {
  // B300 and GB300 are Blackwell: the band is the Blackwell fold's, not every fold pooled.
  StepTimeBand blackwell;
  for (const StepTimeBand& b : UnfittedFamilyStepTimeBands()) {
    if (b.fold == kBlackwell) blackwell = b;
  }
  REQUIRE(blackwell.runs > 0);
  CHECK(blackwell.runs < UnfittedStepTimeBand().runs);
  for (const char* gpu : {"B300-SXM-288GB", "B300-GB300"}) {
    INFO(gpu);
    const auto band = StepTimeBandFor(gpu);
    REQUIRE(band);
    CHECK(band->data_family == kUnfittedBandData);
    CHECK(band->fold == kBlackwell);
    CHECK(band->family == GpuModel(gpu));
    CHECK(band->runs == blackwell.runs);
    CHECK(band->error_p10_pct == blackwell.error_p10_pct);
    CHECK(band->error_p90_pct == blackwell.error_p90_pct);
    CHECK(band->LowFactor() < 1.0);
    CHECK(band->HighFactor() > 1.0);
  }
  // Every family with a fold has its own band; the pooled one names no fold.
  for (const char* family : {kAmpere, kHopper, kBlackwell}) {
    INFO(family);
    int found = 0;
    for (const StepTimeBand& b : UnfittedFamilyStepTimeBands()) found += b.fold == family;
    CHECK(found == 1);
  }
  CHECK(UnfittedStepTimeBand().fold.empty());
  // Fitted: their own bands (B200 and GB200 since the MLPerf, dgxc and NeMo 25.02 rows).
  CHECK(StepTimeBandFor("A100-SXM4-80GB")->data_family == "A100");
  CHECK(StepTimeBandFor("B200-SXM-180GB")->data_family == "B200");
  CHECK(StepTimeBandFor("B200-GB200")->data_family == "GB200");
}

}  // namespace
}  // namespace paraplan
