// The step time's uncertainty band per GPU family, from the validation residuals: the 10th and
// 90th percentiles of (predicted - measured) / measured step time over the family's published
// runs in docs/validation/public_runs.yaml, each predicted leave-one-source-out (`paraplan
// validate --cv source`: by efficiencies fitted without that run's source), because a user's run
// is one nobody fitted to; the in-sample residuals would understate the band. A family without runs
// takes the band of the family its efficiencies are derived from (H200 and H800 from H100,
// DerivedFamilies), and a derived family's own runs count toward that band (every H200 run is in
// the H100 band: one band per architecture). A GPU of a known family (hardware/gpu_family.h) with
// neither, a GPU nobody fitted (B200, B300, GB200), takes the band of every published run
// predicted as a GPU nobody fitted: leave-one-GPU-family-out (`validate --cv gpu`), whose left-out
// family gets exactly the transferred efficiencies such a GPU gets. An unknown GPU (no family) has
// no band. The shipped numbers are
// constants (step_band.cpp); tests/validate/public_runs_cv_test.cpp recomputes them from a fresh
// validation run and fails when they drift.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace paraplan {

inline constexpr const char* kStepBandSource =
    "10th-90th percentile of step-time error over the family's published runs "
    "predicted leave-one-source-out (paraplan validate docs/validation/public_runs.yaml --cv "
    "source; docs/validation.md)";

inline constexpr const char* kUnfittedBandSource =
    "10th-90th percentile of step-time error over every published run predicted as a GPU "
    "nobody fitted, its family left out of the fit (paraplan validate "
    "docs/validation/public_runs.yaml --cv gpu; docs/validation.md)";

// The same for a GPU of a family with a `--cv gpu` fold of its own: that fold's residuals only.
inline constexpr const char* kUnfittedFamilyBandSource =
    "10th-90th percentile of step-time error over the published runs of its family predicted as "
    "GPUs nobody fitted, the family left out of the fit (paraplan validate "
    "docs/validation/public_runs.yaml --cv gpu, the family's fold; docs/validation.md)";

// The data_family of the band a GPU nobody fitted gets.
inline constexpr const char* kUnfittedBandData = "leave-one-GPU-family-out";

struct StepTimeBand {
  std::string family;       // the GPU family asked about ("H200")
  std::string data_family;  // the family whose runs give the band ("H100"), or kUnfittedBandData
  // For kUnfittedBandData: the `--cv gpu` fold whose residuals give it ("Blackwell"), or "" for
  // every fold pooled.
  std::string fold;
  int64_t runs = 0;
  double error_p10_pct = 0;  // (predicted - measured) / measured x 100
  double error_p90_pct = 0;
  // measured / predicted at the band's ends: a predicted step T lies in [T*Low, T*High].
  double LowFactor() const { return 1.0 / (1.0 + error_p90_pct / 100.0); }
  double HighFactor() const { return 1.0 / (1.0 + error_p10_pct / 100.0); }
};

// The band of one family's step-time errors (percent); linear interpolation between ranks.
// Throws std::invalid_argument on an empty list.
StepTimeBand ComputeStepTimeBand(const std::string& family, std::vector<double> errors_pct);

// The shipped bands, one per family with validation runs.
std::vector<StepTimeBand> ShippedStepTimeBands();

// The shipped band of a GPU nobody fitted (family "", data_family kUnfittedBandData), every
// `--cv gpu` fold pooled.
StepTimeBand UnfittedStepTimeBand();

// The shipped bands of a GPU nobody fitted, one per `--cv gpu` fold (fold "Ampere", "Hopper",
// "Blackwell"): what the model's error was when that chip generation was nobody fitted. A new
// part of a generation (B300, GB300) takes its generation's; one of a generation without a fold
// takes the pooled band.
std::vector<StepTimeBand> UnfittedFamilyStepTimeBands();

// The band for a GPU by name ("H100-SXM5-80GB"), or nothing when no validation data covers it.
std::optional<StepTimeBand> StepTimeBandFor(const std::string& gpu_name);

}  // namespace paraplan
