#include "calib/profile_fit.h"

#include <catch2/catch.hpp>
#include <string>

#include "calib/raw_csv.h"
#include "core/error.h"
#include "hardware/profile_lookup.h"

namespace paraplan {
namespace {

const std::string kFitData = std::string(PARAPLAN_SOURCE_DIR) + "/tests/data/calib/";

TEST_CASE("profile fit recovers the synthetic parameters", "[calib]") {
  const ProfileFitResult r = FitProfile(ReadRawCsv(kFitData + "synthetic.csv"));
  const CalibrationProfile& p = r.profile;

  CollectiveFit ar;
  REQUIRE(ProfileCollective(p, "all_reduce", "nvlink", &ar));
  CHECK(ar.latency_us == Approx(20.0).epsilon(1e-3));
  CHECK(ar.bandwidth_GBps == Approx(400.0).epsilon(1e-4));
  CHECK(ar.r2 == Approx(1.0).epsilon(1e-9));
  CHECK(ar.points == 12);
  CollectiveFit ag;
  REQUIRE(ProfileCollective(p, "all_gather", "scaleout", &ag));
  CHECK(ag.latency_us == Approx(35.0).epsilon(1e-3));
  CHECK(ag.bandwidth_GBps == Approx(45.0).epsilon(1e-4));
  CollectiveFit sr;
  REQUIRE(ProfileCollective(p, "send_recv", "nvlink", &sr));
  CHECK(sr.bandwidth_GBps == Approx(350.0).epsilon(1e-4));
  CHECK_FALSE(ProfileCollective(p, "all_to_all", "nvlink", &sr));

  // The 8-rank all-reduce fit is kept over the 4-rank one.
  REQUIRE(r.collectives.size() == 3);
  CHECK(r.collectives[1].op == "all_reduce");
  CHECK(r.collectives[1].ranks == 8);

  REQUIRE(p.gemm.at("bf16").size() == 5);
  const GemmPoint& g = p.gemm.at("bf16")[4];
  CHECK(g.m == 8192);
  CHECK(g.tflops == Approx(700.0 * 8192 / (8192 + 1024)).epsilon(1e-5));
  CHECK(p.gemm.at("fp8")[0].tflops == Approx(1300.0 * 512 / (512 + 1024)).epsilon(1e-5));

  // Median over the sizes of at least a quarter of the largest (1 GiB and 2 GiB): (3000 + 3010)
  // / 2.
  CHECK(p.memory_bandwidth_GBps == Approx(3005.0).epsilon(1e-5));

  REQUIRE(p.attention.size() == 2);
  CHECK(p.attention[0].seq == 2048);
  CHECK(p.attention[0].causal);
  CHECK(p.attention[0].fwd_tflops == Approx(400.0).epsilon(1e-5));
  CHECK(p.attention[1].bwd_tflops == Approx(300.0).epsilon(1e-5));

  CHECK(p.metadata.at("gpu") == "synthetic-GPU");
  CHECK(p.metadata.at("nccl") == "2.28.9");
  // The naive attention row is reported, not used.
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].find("naive") != std::string::npos);
}

// Published nccl-tests output (tests/data/calib/README.md): 8 ranks, all-reduce, 32 KiB-32 MiB.
TEST_CASE("profile fit on published nccl-tests all-reduce rows", "[calib]") {
  const auto rows = ReadRawCsv(kFitData + "nccl_tests_allreduce_8gpu.csv");
  // Our bus factor reproduces the published busbw column (GB/s) from size and time.
  const double published_busbw_GBps[] = {3.07,  6.05,   11.91,  23.48,  45.00, 66.11,
                                         90.27, 137.87, 180.88, 242.00, 300.51};
  REQUIRE(rows.size() == 11);
  for (size_t i = 0; i < rows.size(); ++i) {
    const double busbw = static_cast<double>(rows[i].bytes) *
                         BusBandwidthFactor("all_reduce", rows[i].ranks) / rows[i].time_us * 1e-3;
    CHECK(busbw == Approx(published_busbw_GBps[i]).epsilon(0.01));
  }
  const ProfileFitResult r = FitProfile(rows);
  CollectiveFit fit;
  REQUIRE(ProfileCollective(r.profile, "all_reduce", "nvlink", &fit));
  // Latency near the ~18.7 µs floor of the small sizes; bus bandwidth between the busbw reached at
  // 16 MiB and NVLink line rate (450 GB/s per direction on H100). NCCL switches protocols between
  // 512 KiB and 8 MiB, which a single α–β line cannot follow: the fit is good, not exact.
  CHECK(fit.latency_us > 14.0);
  CHECK(fit.latency_us < 22.0);
  CHECK(fit.bandwidth_GBps > 242.0);
  CHECK(fit.bandwidth_GBps < 450.0);
  CHECK(fit.r2 > 0.95);
  // The fitted model predicts the smallest and the largest size within 20 %.
  CHECK(CollectiveTimeUs(fit, 32768.0 * 1.75) == Approx(18.66).epsilon(0.20));
  CHECK(CollectiveTimeUs(fit, 33554432.0 * 1.75) == Approx(195.40).epsilon(0.20));
  REQUIRE(r.collectives.size() == 1);
  CHECK(r.collectives[0].residual_pct.size() == 11);
  CHECK(r.collectives[0].max_abs_residual_pct > 0.0);
  CHECK(r.collectives[0].max_abs_residual_pct < 30.0);
}

TEST_CASE("profile fit rejects uninterpretable rows with their line", "[calib]") {
  const std::string header = "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n";
  auto error_of = [&](const std::string& body) -> std::string {
    try {
      FitProfile(ParseRawCsv(header + body, "r.csv"));
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(
      error_of("nccl,broadcast,bf16,0,0,0,1024,8,nvlink,3\n").find("r.csv:2: unknown collective") !=
      std::string::npos);
  CHECK(error_of("nccl,all_reduce,bf16,0,0,0,1024,8,,3\n").find("r.csv:2: nccl rows need a tier") !=
        std::string::npos);
  CHECK(error_of("gemm,matmul,bf16,0,8,8,0,1,,3\n").find("r.csv:2: gemm rows need") !=
        std::string::npos);
  CHECK(error_of("attention,sideways,bf16,8,8,8,0,1,,3\n").find("r.csv:2: unknown attention op") !=
        std::string::npos);
  CHECK(error_of("nccl,all_reduce,bf16,0,0,0,1024,8,nvlink,3\n")
            .find("two different message sizes") != std::string::npos);
}

}  // namespace
}  // namespace paraplan
