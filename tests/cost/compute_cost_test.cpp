#include "cost/compute_cost.h"

#include <catch2/catch.hpp>
#include <string>

#include "config/resolve.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

constexpr GemmTile kLarge = kGemmTiles[0];      // 128 x 256
constexpr GemmTile kSmallTile = kGemmTiles[1];  // 128 x 128 at 0.95

}  // namespace

TEST_CASE("GEMM tiles: wave quantization over the SMs", "[cost]") {
  REQUIRE(kLarge.tile_m == 128);
  REQUIRE(kLarge.tile_n == 256);
  // 132 tiles of 128 x 256 on 132 SMs: one full wave.
  CHECK(GemmTileUtilization(kLarge, 128 * 132, 256, 132) == Approx(1.0));
  // One tile more: a second wave with one busy SM, 133 / 264 of the capacity — about half.
  CHECK(GemmTileUtilization(kLarge, 128 * 133, 256, 132) == Approx(133.0 / 264.0));
  // 264 tiles fill two waves again.
  CHECK(GemmTileUtilization(kLarge, 128 * 264, 256, 132) == Approx(1.0));
  // The model takes the better tile: at 133 large tiles, 266 small ones in 3 waves of 132 keep
  // 266 / 396 busy at 0.95 — better than the large tile's 133 / 264.
  const Efficiency e;
  const double one_wave = GemmEfficiency(e, 132, Precision::kBf16, 128 * 132, 256, 8192);
  const double past = GemmEfficiency(e, 132, Precision::kBf16, 128 * 133, 256, 8192);
  const double k_term = 8192 / (8192 + 192.0);
  CHECK(one_wave == Approx(e.gemm_max * k_term));
  CHECK(past == Approx(e.gemm_max * 0.95 * 266.0 / 396.0 * k_term));
  CHECK(past < 0.7 * one_wave);
}

TEST_CASE("GEMM tiles: padding of a partial tile", "[cost]") {
  // 192 x 256 on 2 SMs: two 128 x 256 tiles in one wave, the second half empty: 0.75.
  CHECK(GemmTileUtilization(kLarge, 192, 256, 2) == Approx(0.75));
  // 100 x 100 in one 128 x 128 tile on one SM.
  CHECK(GemmTileUtilization(kSmallTile, 100, 100, 1) == Approx(10000.0 / 16384.0));
  // Exact multiples pad nothing.
  CHECK(GemmTileUtilization(kSmallTile, 256, 384, 6) == Approx(1.0));
}

TEST_CASE("GEMM K-loop prologue: k = k0 halves the rate", "[cost]") {
  CHECK(GemmPrologueK(Precision::kBf16) == 192);
  CHECK(GemmPrologueK(Precision::kFp8) == 384);  // same bytes of K, one byte per element
  const Efficiency e;
  const double m = 128 * 132, n = 256;  // one full wave of large tiles
  CHECK(GemmEfficiency(e, 132, Precision::kBf16, m, n, 192) == Approx(e.gemm_max * 0.5));
  CHECK(GemmEfficiency(e, 132, Precision::kFp8, m, n, 384) == Approx(e.fp8_gemm_max * 0.5));
  // Deep K approaches the top.
  CHECK(GemmEfficiency(e, 132, Precision::kBf16, m, n, 192 * 99) == Approx(e.gemm_max * 0.99));
}

TEST_CASE("GEMM without an SM count keeps the min-dimension curve", "[cost]") {
  const Efficiency e;
  const double x = 1024;
  CHECK(GemmEfficiency(e, 0, Precision::kBf16, 8192, 1024, 8192) ==
        Approx(e.gemm_max * x / (x + e.gemm_half_dim)));
  // Below the fitted range the curve is held at kGemmCurveMinDim.
  CHECK(GemmEfficiency(e, 0, Precision::kBf16, 8192, 64, 8192) ==
        Approx(e.gemm_max * kGemmCurveMinDim / (kGemmCurveMinDim + e.gemm_half_dim)));
  // GemmSeconds uses the tile model only when the cluster opts in (gpu.gemm_model: tile): the
  // SM count alone, a hardware fact every shipped file states, keeps the curve.
  Cluster c = test::DgxH100();
  REQUIRE(c.gpu.gemm_model == GemmModel::kCurve);
  const double curve = GemmSeconds(c, Precision::kBf16, 8192, 8192, 8192);
  c.gpu.sm_count = 132;
  CHECK(GemmSeconds(c, Precision::kBf16, 8192, 8192, 8192) == curve);
  c.gpu.gemm_model = GemmModel::kTile;
  const double tiles = GemmSeconds(c, Precision::kBf16, 8192, 8192, 8192);
  const double eff = GemmEfficiency(c.efficiency, 132, Precision::kBf16, 8192, 8192, 8192);
  CHECK(tiles == Approx(2.0 * 8192.0 * 8192.0 * 8192.0 / (989e12 * eff)));
  CHECK(tiles != Approx(curve));
}

TEST_CASE("GEMM efficiency stays above zero and at most top", "[cost]") {
  const Efficiency e;
  const double dims[] = {1, 7, 64, 100, 128, 129, 512, 1000, 1536, 4096, 8192, 12288, 57344};
  for (const int64_t sms : {1, 108, 132, 148}) {
    for (const double m : dims) {
      for (const double n : dims) {
        for (const double k : dims) {
          const double bf16 = GemmEfficiency(e, sms, Precision::kBf16, m, n, k);
          const double fp8 = GemmEfficiency(e, sms, Precision::kFp8, m, n, k);
          CHECK(bf16 > 0);
          CHECK(bf16 <= e.gemm_max);
          CHECK(fp8 > 0);
          CHECK(fp8 <= e.fp8_gemm_max);
        }
      }
    }
  }
}

TEST_CASE("Batched GEMMs quantize their waves over the whole batch", "[cost]") {
  // 40 matrices of 1,024 x 1,024 on A100's 108 SMs (one attention head's QKᵀ each at 1,024
  // tokens): 8 x 4 = 32 large tiles each. Alone, one matrix keeps 32 of 108 SMs busy; the batch's
  // 1,280 tiles run in ceil(1280 / 108) = 12 waves, 1,280 / 1,296 of them busy.
  CHECK(GemmTileUtilization(kLarge, 1024, 1024, 108) == Approx(32.0 / 108.0));
  CHECK(GemmTileUtilization(kLarge, 1024, 1024, 108, 40) == Approx(1280.0 / 1296.0));
  // A batch of one is the single GEMM.
  CHECK(GemmTileUtilization(kLarge, 128 * 133, 256, 132, 1) ==
        Approx(GemmTileUtilization(kLarge, 128 * 133, 256, 132)));
  const Efficiency e;
  // The model's best tile for one matrix is the small one (64 tiles: 64 / 108 x 0.95); the batch
  // fills the waves with large tiles: 0.988 / 0.563, 1.75x the rate.
  CHECK(GemmEfficiency(e, 108, Precision::kBf16, 1024, 1024, 128, 40) ==
        Approx(1.75 * GemmEfficiency(e, 108, Precision::kBf16, 1024, 1024, 128)).epsilon(0.01));

  Cluster c = test::DgxA100();
  c.gpu.sm_count = 108;
  // The curve prices each product alone: batch x GemmSeconds, as before.
  REQUIRE(c.gpu.gemm_model == GemmModel::kCurve);
  CHECK(BatchedGemmSeconds(c, Precision::kBf16, 40, 1024, 1024, 128) ==
        Approx(40 * GemmSeconds(c, Precision::kBf16, 1024, 1024, 128)));
  // The tile model fills the waves with the batch: faster than 40 launches of one matrix, never
  // faster than the batch's bytes at HBM bandwidth.
  c.gpu.gemm_model = GemmModel::kTile;
  const double batched = BatchedGemmSeconds(c, Precision::kBf16, 40, 1024, 1024, 128);
  CHECK(batched < 0.6 * 40 * GemmSeconds(c, Precision::kBf16, 1024, 1024, 128));
  CHECK(batched >= 40 * GemmBytes(Precision::kBf16, 1024, 1024, 128) / HbmBytesPerSecond(c));
  CHECK(BatchedGemmSeconds(c, Precision::kBf16, 1, 4096, 4096, 4096) ==
        Approx(GemmSeconds(c, Precision::kBf16, 4096, 4096, 4096)));
  CHECK(BatchedGemmSeconds(c, Precision::kBf16, 0, 4096, 4096, 4096) == 0.0);
}

TEST_CASE("A100's GEMMs at 1,024 tokens run near its large-GEMM rate, as measured", "[cost]") {
  // Bekman's MAMF table (ml-engineering compute/accelerator/README.md, "Maximum Achievable
  // Matmul FLOPS comparison table", torch 2.6.0+cu126): A100 SXM's best bf16 shape is
  // 1024 x 10240 x 5120, 271.2 of 312 TFLOP/s (86.9%). hardware/dgx-a100-80gb.yaml prices A100
  // on the tile model: that shape fills 320 tiles in 3 waves of 108 SMs and comes within 5% of
  // a large square GEMM's rate. The min-dimension curve (x = 1,024) would put it at 0.68 of its
  // top, 0.72 of the 8,192 cube's.
  const Cluster a100 =
      LoadCluster(std::string(PARAPLAN_SOURCE_DIR) + "/hardware/dgx-a100-80gb.yaml");
  REQUIRE(a100.gpu.gemm_model == GemmModel::kTile);
  REQUIRE(a100.gpu.sm_count == 108);
  const Efficiency& e = a100.efficiency;
  const double mamf = GemmEfficiency(e, 108, Precision::kBf16, 1024, 10240, 5120);
  const double cube = GemmEfficiency(e, 108, Precision::kBf16, 8192, 8192, 8192);
  CHECK(mamf >= 0.95 * cube);
  const double curve_ratio = (1024 / (1024 + e.gemm_half_dim)) / (8192 / (8192 + e.gemm_half_dim));
  CHECK(curve_ratio < 0.8);
}
