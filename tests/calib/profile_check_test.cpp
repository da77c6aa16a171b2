// `calibrate check` and the profile's effect on the cost model, on the H200 measurements committed
// under calibrate/data/h200-2026-11-29/ (the profile in hardware/profiles/ was fitted from the
// grid, a Llama-3 70B layer, attention and memory; gemm_holdout.csv was not fitted).
#include "calib/profile_check.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>

#include "calib/profile_fit.h"
#include "calib/raw_csv.h"
#include "cli/cli_runner.h"
#include "config/efficiency_loader.h"
#include "config/resolve.h"
#include "cost/compute_cost.h"
#include "hardware/profile_lookup.h"

namespace paraplan {
namespace {

const std::string kCheckRoot = PARAPLAN_SOURCE_DIR;
const std::string kH200 = kCheckRoot + "/calibrate/data/h200-2026-11-29/";

Cluster CalibratedH200() {
  Cluster c = LoadCluster(kCheckRoot + "/hardware/dgx-h200-calibrated.yaml");
  ApplyDefaultEfficiency(c);
  return c;
}

double Mape(const ProfileCheck& check, const std::string& dtype, bool with_profile) {
  double sum = 0;
  int n = 0;
  for (const auto& c : check.rows) {
    if (c.row.dtype != dtype) continue;
    const double predicted = with_profile ? c.profile_us : c.default_us;
    sum += std::fabs(predicted - c.row.time_us) / c.row.time_us;
    ++n;
  }
  REQUIRE(n > 0);
  return 100.0 * sum / n;
}

TEST_CASE("the H200 profile predicts GEMM shapes it was not fitted on", "[calib]") {
  const Cluster cluster = CalibratedH200();
  REQUIRE(cluster.profile);
  const ProfileCheck check = CheckProfile(cluster, ReadRawCsv(kH200 + "gemm_holdout.csv"));
  REQUIRE(check.rows.size() == 292);
  // GPT-3 175B and Llama-3 8B layer GEMMs, predicted from the grid and the Llama-3 70B layer.
  CHECK(Mape(check, "bf16", true) < 10.0);
  CHECK(Mape(check, "fp8", true) < 10.0);
  // ... and better than the defaults, which condense the same harness's grid into one
  // two-parameter curve per precision (docs/cost-model.md, "Constants").
  CHECK(Mape(check, "bf16", true) < Mape(check, "bf16", false));
  CHECK(Mape(check, "fp8", true) < Mape(check, "fp8", false));
}

TEST_CASE("the H200 fit: copy bandwidth, exact GEMM points, cuDNN attention rates", "[calib]") {
  std::vector<RawRow> rows;
  for (const char* f : {"memory.csv", "gemm_fit.csv", "attention_sdpa.csv"}) {
    const auto more = ReadRawCsv(kH200 + f);
    rows.insert(rows.end(), more.begin(), more.end());
  }
  const ProfileFitResult fit = FitProfile(rows);
  // Median of the 256 MiB and 1 GiB copies (3,844 and 4,124 GB/s); the slower norm kernel rows
  // do not pull it down.
  CHECK(fit.profile.memory_bandwidth_GBps == Approx(3983.6).epsilon(1e-4));
  // 8192³ bf16 took 1,612.192 µs: 2·8192³ / 1612.192e-6 s = 682.0 TFLOP/s.
  bool found = false;
  CHECK(ProfileGemmTflops(fit.profile, "bf16", 8192, 8192, 8192, &found) ==
        Approx(682.0).epsilon(1e-3));
  REQUIRE(fit.profile.attention.size() == 12);
  for (const auto& a : fit.profile.attention) {
    CHECK(a.causal);
    CHECK(a.fwd_tflops > 300);  // a fused kernel, far above the naive one (~1 TFLOP/s)
    CHECK(a.bwd_tflops > 150);
    CHECK(a.fwd_tflops < 989);  // under the bf16 datasheet peak
  }
}

TEST_CASE("a profile's attention table moves attention time the way it should", "[calib]") {
  Cluster c = CalibratedH200();
  const AttentionShape shape{8192, 8, 128};
  const double flops = 4.0 * 8192.0 * 8192.0 * 8 * 128 / 2;
  const double measured = AttentionSeconds(c, flops, false, shape);
  // The profile's own point at 8K, 8 heads: 601.7 TFLOP/s, the median (mean of two) of the PyTorch
  // and harness cuDNN measurements.
  CHECK(flops / measured / 1e12 == Approx(601.673).epsilon(1e-4));
  auto faster = std::make_shared<CalibrationProfile>(*c.profile);
  for (auto& a : faster->attention) a.fwd_tflops *= 1.25;
  c.profile = faster;
  CHECK(AttentionSeconds(c, flops, false, shape) == Approx(measured / 1.25).epsilon(1e-9));
  c.profile.reset();
  const double defaults = AttentionSeconds(c, flops, false, shape);
  CHECK(defaults > 0);
  CHECK(defaults != measured);
}

int RunCheck(const std::vector<std::string>& args, std::string* out, std::string* err) {
  const testing::CliOutput result = testing::RunParaplan(args);
  *out = result.out;
  *err = result.err;
  return result.code;
}

TEST_CASE("calibrate check prints both predictions and rejects bad input", "[calib][cli]") {
  std::string out, err;
  REQUIRE(RunCheck({"calibrate", "check", "-c", kCheckRoot + "/hardware/dgx-h200-calibrated.yaml",
                    kH200 + "memory.csv", "--format", "json"},
                   &out, &err) == 0);
  CHECK(out.find("\"profile_us\"") != std::string::npos);
  CHECK(out.find("\"default_mape_pct\"") != std::string::npos);
  CHECK(out.find("\"skipped\": 6") != std::string::npos);  // the norm rows
  REQUIRE(RunCheck({"calibrate", "check", "-c", "dgx-h200", kH200 + "memory.csv"}, &out, &err) ==
          0);
  CHECK(err.find("no calibration profile") != std::string::npos);
  CHECK(RunCheck({"calibrate", "check", "-c", "no-such-cluster", kH200 + "memory.csv"}, &out,
                 &err) == 2);
  CHECK(RunCheck({"calibrate", "check", "-c", "dgx-h200", kCheckRoot + "/README.md"}, &out, &err) ==
        2);
  CHECK(err.find("README.md:") != std::string::npos);
}

}  // namespace
}  // namespace paraplan
