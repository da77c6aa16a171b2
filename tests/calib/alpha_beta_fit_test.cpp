#include "calib/alpha_beta_fit.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/error.h"

namespace paraplan {
namespace {

std::vector<AlphaBetaPoint> Synthetic(double alpha_us, double bandwidth_GBps, double noise) {
  std::vector<AlphaBetaPoint> points;
  int i = 0;
  for (double bytes = 1024; bytes <= 4e9; bytes *= 2, ++i) {
    const double t = alpha_us + bytes / (bandwidth_GBps * 1e3);
    points.push_back({bytes, t * (1.0 + noise * (i % 2 == 0 ? 1 : -1))});
  }
  return points;
}

TEST_CASE("alpha-beta fit recovers exact parameters", "[calib]") {
  const AlphaBetaResult r = FitAlphaBeta(Synthetic(12.5, 370.0, 0.0));
  CHECK(r.fit.latency_us == Approx(12.5).epsilon(1e-9));
  CHECK(r.fit.bandwidth_GBps == Approx(370.0).epsilon(1e-9));
  CHECK(r.fit.r2 == Approx(1.0).epsilon(1e-12));
  CHECK(r.fit.points == 22);  // 2^10 .. 2^31 bytes
  CHECK(r.max_abs_residual_pct < 1e-6);
}

TEST_CASE("alpha-beta fit tolerates noise and reports it", "[calib]") {
  const AlphaBetaResult r = FitAlphaBeta(Synthetic(30.0, 48.0, 0.03));
  CHECK(r.fit.latency_us == Approx(30.0).epsilon(0.05));
  CHECK(r.fit.bandwidth_GBps == Approx(48.0).epsilon(0.05));
  CHECK(r.fit.r2 > 0.99);
  CHECK(r.fit.r2 < 1.0);
  CHECK(r.max_abs_residual_pct == Approx(3.0).epsilon(0.2));
}

TEST_CASE("alpha-beta fit clamps a negative latency at zero", "[calib]") {
  // Pure bandwidth with super-linear small sizes pushes the intercept below zero.
  std::vector<AlphaBetaPoint> points = {{1e6, 1.0}, {2e6, 3.0}, {4e6, 7.0}};
  const AlphaBetaResult r = FitAlphaBeta(points);
  CHECK(r.fit.latency_us == 0.0);
  CHECK(r.fit.bandwidth_GBps > 0);
}

TEST_CASE("alpha-beta fit refuses degenerate data", "[calib]") {
  CHECK_THROWS_AS(FitAlphaBeta({{1024, 5.0}}), InputError);
  CHECK_THROWS_AS(FitAlphaBeta({{1024, 5.0}, {1024, 6.0}}), InputError);
  CHECK_THROWS_AS(FitAlphaBeta({{1024, 9.0}, {1e9, 5.0}}), InputError);
}

}  // namespace
}  // namespace paraplan
