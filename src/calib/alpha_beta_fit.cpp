#include "calib/alpha_beta_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace paraplan {
namespace {

// GB/s from a slope in µs per byte: 1 byte/µs = 1e6 B/s = 1e-3 GB/s.
double SlopeToGBps(double slope_us_per_byte) {
  return 1e-3 / slope_us_per_byte;
}

// Weighted least squares for (α, slope) with the byte column scaled to [0, 1] for conditioning.
Eigen::Vector2d SolveBoth(const std::vector<AlphaBetaPoint>& points, double x_scale) {
  const Eigen::Index n = static_cast<Eigen::Index>(points.size());
  Eigen::MatrixXd a(n, 2);
  Eigen::VectorXd b = Eigen::VectorXd::Ones(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    const auto& p = points[static_cast<size_t>(i)];
    a(i, 0) = 1.0 / p.time_us;
    a(i, 1) = p.bus_bytes / x_scale / p.time_us;
  }
  Eigen::Vector2d solution = a.colPivHouseholderQr().solve(b);
  solution(1) /= x_scale;
  return solution;
}

// The same with α = 0: slope = Σ(x/t) / Σ(x/t)² (weighted least squares through the origin).
double SolveSlopeOnly(const std::vector<AlphaBetaPoint>& points) {
  double num = 0, den = 0;
  for (const auto& p : points) {
    const double r = p.bus_bytes / p.time_us;
    num += r;
    den += r * r;
  }
  return den > 0 ? num / den : 0;
}

}  // namespace

AlphaBetaResult FitAlphaBeta(const std::vector<AlphaBetaPoint>& points) {
  double x_min = 0, x_max = 0;
  for (size_t i = 0; i < points.size(); ++i) {
    if (!(points[i].time_us > 0) || !(points[i].bus_bytes >= 0)) {
      throw InputError("alpha-beta fit: times must be > 0 and sizes >= 0");
    }
    x_min = i == 0 ? points[i].bus_bytes : std::min(x_min, points[i].bus_bytes);
    x_max = std::max(x_max, points[i].bus_bytes);
  }
  if (points.size() < 2 || x_max <= x_min) {
    throw InputError("alpha-beta fit: need at least two different message sizes");
  }
  Eigen::Vector2d sol = SolveBoth(points, x_max);
  double alpha_us = sol(0), slope = sol(1);
  if (alpha_us < 0) {
    alpha_us = 0;
    slope = SolveSlopeOnly(points);
  }
  if (!(slope > 0)) {
    throw InputError("alpha-beta fit: time does not grow with message size");
  }
  AlphaBetaResult result;
  result.fit.latency_us = alpha_us;
  result.fit.bandwidth_GBps = SlopeToGBps(slope);
  result.fit.points = static_cast<int>(points.size());
  double mean = 0;
  for (const auto& p : points) mean += p.time_us;
  mean /= static_cast<double>(points.size());
  double ss_res = 0, ss_tot = 0;
  for (const auto& p : points) {
    const double fitted = alpha_us + slope * p.bus_bytes;
    ss_res += (p.time_us - fitted) * (p.time_us - fitted);
    ss_tot += (p.time_us - mean) * (p.time_us - mean);
    const double pct = fitted > 0 ? (p.time_us - fitted) / fitted * 100.0 : 0.0;
    result.residual_pct.push_back(pct);
    result.max_abs_residual_pct = std::max(result.max_abs_residual_pct, std::fabs(pct));
  }
  result.fit.r2 = ss_tot > 0 ? 1.0 - ss_res / ss_tot : 1.0;
  return result;
}

}  // namespace paraplan
