#include "calib/profile_lookup.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"

namespace paraplan {
namespace {

constexpr size_t kNeighbours = 4;

double LogDistance(const GemmPoint& p, double lm, double ln, double lk) {
  const double dm = std::log(static_cast<double>(p.m)) - lm;
  const double dn = std::log(static_cast<double>(p.n)) - ln;
  const double dk = std::log(static_cast<double>(p.k)) - lk;
  return std::sqrt(dm * dm + dn * dn + dk * dk);
}

}  // namespace

double ProfileGemmTflops(const CalibrationProfile& profile, const std::string& dtype, int64_t m,
                         int64_t n, int64_t k, bool* found) {
  if (found != nullptr) *found = false;
  const auto it = profile.gemm.find(dtype);
  if (it == profile.gemm.end() || it->second.empty() || m < 1 || n < 1 || k < 1) return 0;
  const double lm = std::log(static_cast<double>(m));
  const double ln = std::log(static_cast<double>(n));
  const double lk = std::log(static_cast<double>(k));
  // (distance, index): sorting by both keeps ties in table order, so the result is deterministic.
  std::vector<std::pair<double, size_t>> nearest;
  for (size_t i = 0; i < it->second.size(); ++i) {
    const GemmPoint& p = it->second[i];
    if (p.m == m && p.n == n && p.k == k) {
      if (found != nullptr) *found = true;
      return p.tflops;
    }
    nearest.emplace_back(LogDistance(p, lm, ln, lk), i);
  }
  std::sort(nearest.begin(), nearest.end());
  nearest.resize(std::min(nearest.size(), kNeighbours));
  // Inverse-distance weighting, power 2 (Shepard 1968).
  double weighted = 0, total_weight = 0;
  for (const auto& [distance, index] : nearest) {
    const double weight = 1.0 / (distance * distance);
    weighted += weight * it->second[index].tflops;
    total_weight += weight;
  }
  if (found != nullptr) *found = true;
  return weighted / total_weight;
}

bool ProfileCollective(const CalibrationProfile& profile, const std::string& op,
                       const std::string& tier, CollectiveFit* out) {
  const auto op_it = profile.collectives.find(op);
  if (op_it == profile.collectives.end()) return false;
  const auto tier_it = op_it->second.find(tier);
  if (tier_it == op_it->second.end()) return false;
  if (out != nullptr) *out = tier_it->second;
  return true;
}

double CollectiveTimeUs(const CollectiveFit& fit, double bus_bytes) {
  // bandwidth_GBps · 1e3 = bytes per µs.
  return fit.latency_us + bus_bytes / (fit.bandwidth_GBps * 1e3);
}

double BusBandwidthFactor(const std::string& op, int ranks) {
  const double n = ranks < 2 ? 1.0 : static_cast<double>(ranks);
  if (op == "all_reduce") return ranks < 2 ? 1.0 : 2.0 * (n - 1.0) / n;
  if (op == "all_gather" || op == "reduce_scatter" || op == "all_to_all") {
    return ranks < 2 ? 1.0 : (n - 1.0) / n;
  }
  if (op == "send_recv") return 1.0;
  throw InputError("unknown collective '" + op +
                   "' (valid: all_gather, all_reduce, all_to_all, reduce_scatter, send_recv)");
}

}  // namespace paraplan
