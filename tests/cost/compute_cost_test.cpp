#include "cost/compute_cost.h"

#include <catch2/catch.hpp>

#include "test_specs.h"

using namespace paraplan;

namespace {

constexpr GemmTile kLarge = kGemmTiles[0];  // 128 x 256
constexpr GemmTile kSmall = kGemmTiles[1];  // 128 x 128 at 0.95

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
  CHECK(GemmTileUtilization(kSmall, 100, 100, 1) == Approx(10000.0 / 16384.0));
  // Exact multiples pad nothing.
  CHECK(GemmTileUtilization(kSmall, 256, 384, 6) == Approx(1.0));
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
