// Fitting the default efficiencies (hardware/efficiency.yaml) to published runs, per GPU family,
// over all the family's runs at once — never per row. The model: log(predicted / measured step
// time) for every run not held out, plus a ridge row per parameter that pulls it toward the
// prior (PriorEfficiency: the sourced starting points of hardware/efficiency.yaml).
// Levenberg–Marquardt with a numeric Jacobian; bounds by clamping. The plan chosen for the knobs a
// source did not state is frozen during each outer iteration and re-searched between them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "calib/fit_memo.h"
#include "config/runs_file.h"
#include "hardware/efficiency.h"
#include "validate/metric_summary.h"
#include "validate/run_evaluation.h"

namespace paraplan {

// One fitted number: its name in hardware/efficiency.yaml ("gemm_max", "link.nvlink"), bounds,
// the prior and the prior's standard deviation used by the ridge.
struct EfficiencyParameter {
  std::string name;
  double lower = 0;
  double upper = 0;
  double prior_sigma = 0;
};

// Every field of an Efficiency for a cluster whose tiers are `tier_names`, with generic bounds
// (what hardware/efficiency.yaml holds).
std::vector<EfficiencyParameter> EfficiencyParameters(const std::vector<std::string>& tier_names);

// The few a fit moves for a GPU family, bounded by their measured ranges; the others keep the
// family's measured values (PriorEfficiency).
// The GpuSpec forms read the part's own measured rates from its hardware file (`gpu.measured`,
// hardware/measured_efficiency.h); the fit passes its first run's GPU.
std::vector<EfficiencyParameter> FittedParameters(const std::string& family,
                                                  const std::vector<std::string>& tier_names);
std::vector<EfficiencyParameter> FittedParameters(const GpuSpec& gpu,
                                                  const std::vector<std::string>& tier_names);

// The prior of a family: the sourced starting points (A100, Hopper; a part's own measured rates),
// else the struct defaults; one link fraction per tier name.
Efficiency PriorEfficiency(const std::string& family, const std::vector<std::string>& tiers);
Efficiency PriorEfficiency(const GpuSpec& gpu, const std::vector<std::string>& tiers);

// Reading and writing one parameter of an Efficiency by its name (throws InputError if unknown).
double GetEfficiencyValue(const Efficiency& efficiency, const std::string& name);
void SetEfficiencyValue(Efficiency& efficiency, const std::string& name, double value);

struct FamilyFitCache;

struct EfficiencyFitOptions {
  int64_t holdout_every = 4;  // every K-th run per family (by id) is held out of the fit
  int outer_iterations = 3;   // re-search the open knobs between LM fits, at most this often
  int lm_iterations = 25;
  double ridge_weight = 0.1;  // a one-sigma move costs as much as a 10% error on one run
  // Each run's loss is weighted by n^-exponent, n the runs of its source in the family
  // (SourceWeights): 0 counts every run alike, 1 every source alike; 0.5 lets a source's say grow
  // with the square root of its runs, so one large sweep cannot decide a family alone.
  double source_weight_exponent = 0.5;
  int threads = 0;
  RunEvaluationOptions run;
  // Called by FitEfficiencies after each outer iteration with (share of the fit done, GPU
  // families fitted); may be empty. Cross-validation's folds never call it.
  std::function<void(double, int64_t)> progress;
  // Family fits already made (may be null): a family whose fitted and held-out runs are the same
  // as in an earlier fit through the same cache takes that fit instead of refitting (the fit is a
  // pure function of them). Share one cache only between fits of the same runs with the same
  // options: cross-validation's folds, where a left-out source changes only its own families.
  std::shared_ptr<FamilyFitCache> cache;
};

struct FamilyFit {
  std::string family;
  std::vector<std::string> fitted_ids;
  std::vector<std::string> held_out_ids;
  Efficiency prior;
  Efficiency fitted;
  std::vector<EfficiencyParameter> parameters;
  MetricSummary fitted_before, fitted_after;      // step time, runs in the fit
  MetricSummary held_out_before, held_out_after;  // step time, held-out runs
  int outer_iterations = 0;
  int lm_iterations = 0;
};

// Family fits by family name and the ids of their fitted and held-out runs, and what every fit of
// a family computes at its prior (FitMemo); safe to share between threads.
struct FamilyFitCache {
  std::mutex mutex;
  std::map<std::string, FamilyFit> fits;
  FitMemo memo;
};

struct EfficiencyFitResult {
  std::vector<FamilyFit> families;  // by family name
  // The defaults to write: fitted families, plus families derived from a fitted one.
  std::map<std::string, Efficiency> defaults;
  std::map<std::string, std::string> derived_from;  // "H200" → "H100"
  std::vector<std::string> evaluation_only_ids;     // runs given but never fitted, file order
};

// The fit's weight of each run: n^-exponent, n the number of `runs` sharing its source group
// (SourceGroup), normalised so that the weights average 1 (with exponent 0 every weight is 1).
std::vector<double> SourceWeights(const std::vector<const RunSpec*>& runs, double exponent);

// Evaluation-only runs (RunSpec::evaluation_only) are skipped: neither fitted nor held out (the
// held-out split of the others is what it would be without them); their ids are listed.
EfficiencyFitResult FitEfficiencies(const std::vector<RunSpec>& runs,
                                    const EfficiencyFitOptions& options);

// The runs with each family's efficiency replaced by `defaults` (families not listed keep theirs).
std::vector<RunSpec> WithEfficiencies(std::vector<RunSpec> runs,
                                      const std::map<std::string, Efficiency>& defaults);

}  // namespace paraplan
