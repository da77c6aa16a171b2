#include "calib/cross_validation.h"

#include <algorithm>
#include <set>
#include <utility>

#include "validate/holdout.h"
#include "validate/validation_text.h"

namespace paraplan {

namespace {

constexpr const char* kNoSource = "(no source)";

// The left-out runs with the fold's efficiencies: the fitted (or derived) numbers of their
// family, else the family's prior. Returns the families that had to take the prior.
std::vector<std::string> ApplyFoldEfficiencies(std::vector<RunSpec>& test,
                                               const EfficiencyFitResult& fit) {
  std::set<std::string> prior_families;
  for (auto& run : test) {
    if (!run.error.empty()) continue;
    const std::string family = GpuFamily(run.cluster.gpu.name);
    auto it = fit.defaults.find(family);
    if (it != fit.defaults.end()) {
      run.cluster.efficiency = it->second;
      continue;
    }
    std::vector<std::string> tiers;
    for (const auto& tier : run.cluster.network) tiers.push_back(tier.name);
    run.cluster.efficiency = PriorEfficiency(family, tiers);
    prior_families.insert(family);
  }
  return {prior_families.begin(), prior_families.end()};
}

// Fits on `train` (evaluation-only runs in it are skipped by the fit) and predicts `test`.
SourceFold RunFold(const std::vector<RunSpec>& train, std::vector<RunSpec> test,
                   const std::string& source, const EfficiencyFitOptions& options) {
  SourceFold fold;
  fold.source = source;
  const EfficiencyFitResult fit = FitEfficiencies(train, options);
  fold.families = fit.families;
  for (const auto& family : fit.families) {
    fold.fitted_ids.insert(fold.fitted_ids.end(), family.fitted_ids.begin(),
                           family.fitted_ids.end());
  }
  std::sort(fold.fitted_ids.begin(), fold.fitted_ids.end());
  fold.prior_families = ApplyFoldEfficiencies(test, fit);
  ValidationOptions validation;
  validation.threads = options.threads;
  validation.holdout_every = 0;
  validation.run = options.run;
  fold.report = ValidateRuns(test, validation);
  fold.step_time = fold.report.all.metrics.at("step_time_s");
  return fold;
}

}  // namespace

std::string SourceGroup(const std::string& source) {
  std::string group = SourceShort(source);
  const size_t first = group.find_first_not_of(' ');
  group = first == std::string::npos ? "" : group.substr(first);
  return group.empty() ? kNoSource : group;
}

CrossValidationResult CrossValidateBySource(const std::vector<RunSpec>& runs,
                                            const EfficiencyFitOptions& options) {
  std::vector<std::string> groups;
  std::vector<std::string> order;
  groups.reserve(runs.size());
  for (const auto& run : runs) {
    groups.push_back(run.evaluation_only ? "" : SourceGroup(run.source));
    if (!run.evaluation_only &&
        std::find(order.begin(), order.end(), groups.back()) == order.end()) {
      order.push_back(groups.back());
    }
  }
  EfficiencyFitOptions fold_options = options;
  fold_options.holdout_every = 0;
  CrossValidationResult result;
  std::vector<double> pooled;
  double mape_sum = 0;
  int folds_with_errors = 0;
  for (const auto& source : order) {
    std::vector<RunSpec> train;
    std::vector<RunSpec> test;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].evaluation_only) continue;
      (groups[i] == source ? test : train).push_back(runs[i]);
    }
    result.folds.push_back(RunFold(train, std::move(test), source, fold_options));
    const SourceFold& fold = result.folds.back();
    for (const auto& run : fold.report.runs) {
      auto it = run.error_pct.find("step_time_s");
      if (run.status == RunStatus::kOk && it != run.error_pct.end()) pooled.push_back(it->second);
    }
    if (fold.step_time.n > 0) {
      mape_sum += fold.step_time.mape_pct;
      ++folds_with_errors;
    }
  }
  std::vector<RunSpec> evaluation;
  std::vector<RunSpec> rest;
  for (const auto& run : runs) (run.evaluation_only ? evaluation : rest).push_back(run);
  if (!evaluation.empty()) {
    result.evaluation = RunFold(rest, std::move(evaluation), kEvaluationSource, fold_options);
  }
  result.overall = Summarize(pooled);
  if (folds_with_errors > 0) result.source_mean_mape_pct = mape_sum / folds_with_errors;
  return result;
}

}  // namespace paraplan
