#include "validate/step_band.h"

#include <algorithm>
#include <stdexcept>

#include "hardware/gpu_family.h"

namespace paraplan {

namespace {

double Percentile(const std::vector<double>& sorted, double q) {
  const double at = q * static_cast<double>(sorted.size() - 1);
  const size_t i = static_cast<size_t>(at);
  if (i + 1 >= sorted.size()) return sorted.back();
  return sorted[i] + (sorted[i + 1] - sorted[i]) * (at - static_cast<double>(i));
}

}  // namespace

StepTimeBand ComputeStepTimeBand(const std::string& family, std::vector<double> errors_pct) {
  if (errors_pct.empty()) throw std::invalid_argument("ComputeStepTimeBand: no errors");
  std::sort(errors_pct.begin(), errors_pct.end());
  StepTimeBand band;
  band.family = family;
  band.data_family = family;
  band.runs = static_cast<int64_t>(errors_pct.size());
  band.error_p10_pct = Percentile(errors_pct, 0.1);
  band.error_p90_pct = Percentile(errors_pct, 0.9);
  return band;
}

std::vector<StepTimeBand> ShippedStepTimeBands() {
  // Recomputed by tests/validate/public_runs_cv_test.cpp (it prints the new values when they
  // drift).
  return {
      {"A100", "A100", "", 400, -16.5, 7.5},
      {"B200", "B200", "", 71, -26.7, 18.6},
      {"GB200", "GB200", "", 59, -29.3, 6.8},
      {"H100", "H100", "", 341, -20.1, 8.9},  // with the H200 runs (their band is H100's)
  };
}

StepTimeBand UnfittedStepTimeBand() {
  // Recomputed by tests/validate/public_runs_cv_test.cpp from `validate --cv gpu`'s pooled
  // residuals.
  return {"", kUnfittedBandData, "", 871, -20.6, 6.7};
}

std::vector<StepTimeBand> UnfittedFamilyStepTimeBands() {
  // Recomputed by tests/validate/public_runs_cv_test.cpp from `validate --cv gpu`'s folds.
  return {
      {"", kUnfittedBandData, kAmpere, 400, -17.3, 3.3},
      {"", kUnfittedBandData, kBlackwell, 130, -26.2, 8.4},
      {"", kUnfittedBandData, kHopper, 341, -23.0, 8.3},
  };
}

std::optional<StepTimeBand> StepTimeBandFor(const std::string& gpu_name) {
  const std::string family = GpuModel(gpu_name);
  std::string data_family = family;
  const auto derived = DerivedFamilies();
  if (auto it = derived.find(family); it != derived.end()) data_family = it->second;
  for (StepTimeBand band : ShippedStepTimeBands()) {
    if (band.family != data_family) continue;
    band.family = family;
    return band;
  }
  const std::string generation = GpuFamily(gpu_name);
  if (generation != gpu_name) {
    for (StepTimeBand band : UnfittedFamilyStepTimeBands()) {
      if (band.fold != generation) continue;
      band.family = family;
      return band;
    }
    StepTimeBand band = UnfittedStepTimeBand();
    band.family = family;
    return band;
  }
  return std::nullopt;
}

}  // namespace paraplan
