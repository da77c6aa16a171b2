#include "cost/straggler.h"

#include <cmath>

namespace paraplan {

namespace {

// Acklam's coefficients: the central region's rational function (a / b) and the tails' (c / d).
constexpr double kA[] = {-3.969683028665376e+01, 2.209460984245205e+02,  -2.759285104469687e+02,
                         1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
constexpr double kB[] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                         6.680131188771972e+01, -1.328068155288572e+01};
constexpr double kC[] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                         -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
constexpr double kD[] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                         3.754408661907416e+00};
constexpr double kLow = 0.02425;  // below it (and above 1 - kLow) the tail formula

double Tail(double q) {  // q = sqrt(-2 ln(tail probability)); the quantile's magnitude
  const double num = ((((kC[0] * q + kC[1]) * q + kC[2]) * q + kC[3]) * q + kC[4]) * q + kC[5];
  const double den = (((kD[0] * q + kD[1]) * q + kD[2]) * q + kD[3]) * q + 1.0;
  return num / den;
}

}  // namespace

double InverseNormalCdf(double p) {
  if (!(p > 0 && p < 1)) return p >= 1 ? INFINITY : -INFINITY;
  if (p < kLow) return Tail(std::sqrt(-2.0 * std::log(p)));
  if (p > 1.0 - kLow) return -Tail(std::sqrt(-2.0 * std::log1p(-p)));
  const double q = p - 0.5;
  const double r = q * q;
  const double num =
      (((((kA[0] * r + kA[1]) * r + kA[2]) * r + kA[3]) * r + kA[4]) * r + kA[5]) * q;
  const double den = ((((kB[0] * r + kB[1]) * r + kB[2]) * r + kB[3]) * r + kB[4]) * r + 1.0;
  return num / den;
}

double ExpectedMaxStandardNormal(int64_t n) {
  if (n <= 1) return 0;  // Blom's plotting position is 1/2 at n = 1: the median, no slowdown
  const double x = static_cast<double>(n);
  // 1 - (n - 0.375)/(n + 0.25) = 0.625/(n + 0.25): the upper tail, without cancellation.
  const double tail = 0.625 / (x + 0.25);
  if (tail < kLow) return -Tail(std::sqrt(-2.0 * std::log(tail)));
  return InverseNormalCdf(1.0 - tail);
}

double SlowestRankFraction(double sigma, int64_t ranks) {
  if (!(sigma > 0) || ranks <= 1) return 0;
  return sigma * ExpectedMaxStandardNormal(ranks);
}

}  // namespace paraplan
