#include "calib/cross_validation.h"

#include <algorithm>
#include <set>
#include <utility>

#include "config/efficiency_loader.h"
#include "hardware/efficiency_transfer.h"
#include "hardware/gpu_family.h"
#include "plan/framework.h"
#include "validate/framework_conventions.h"
#include "validate/validation_text.h"

namespace paraplan {

namespace {

std::vector<std::string> TierNames(const RunSpec& run) {
  std::vector<std::string> tiers;
  for (const auto& tier : run.cluster.network) tiers.push_back(tier.name);
  return tiers;
}

// The fitted model a GPU without fitted runs takes its numbers from: `preferred` (the one `plan`
// takes them from, hardware/efficiency.yaml's `unfitted.from`) when the fold fitted it, else the
// fold's model with the most fitted runs (ties: the first by name); with the GPU of its first
// fitted run; nullptr when nothing was fitted.
struct Reference {
  const FamilyFit* fit = nullptr;
  GpuSpec gpu;
};

Reference TransferReference(const std::vector<RunSpec>& train, const EfficiencyFitResult& fit,
                            const std::string& preferred) {
  Reference ref;
  for (const auto& family : fit.families) {
    if (family.family == preferred && !family.fitted_ids.empty()) {
      ref.fit = &family;
      break;
    }
    if (!ref.fit || family.fitted_ids.size() > ref.fit->fitted_ids.size()) ref.fit = &family;
  }
  if (!ref.fit) return ref;
  for (const auto& run : train) {
    if (run.error.empty() && GpuModel(run.cluster.gpu.name) == ref.fit->family) {
      ref.gpu = run.cluster.gpu;
      break;
    }
  }
  return ref;
}

// The left-out runs with the fold's efficiencies: the fitted (or derived) numbers of their
// model, else the model's prior (`transfer` false: leave-one-source-out, as it always did) or
// what a GPU without fitted runs gets (`transfer` true: TransferEfficiency from the fold's
// reference). Returns the models that had to take the prior or the transfer.
std::vector<std::string> ApplyFoldEfficiencies(std::vector<RunSpec>& test,
                                               const EfficiencyFitResult& fit,
                                               const Reference* transfer,
                                               std::map<std::string, std::string>* transferred) {
  std::set<std::string> prior_families;
  for (auto& run : test) {
    if (!run.error.empty()) continue;
    const std::string family = GpuModel(run.cluster.gpu.name);
    auto it = fit.defaults.find(family);
    if (it != fit.defaults.end()) {
      run.cluster.efficiency = it->second;
      continue;
    }
    if (transfer && transfer->fit) {
      run.cluster.efficiency = TransferEfficiency(transfer->fit->fitted, transfer->fit->family,
                                                  transfer->gpu, run.cluster.gpu, TierNames(run))
                                   .efficiency;
      (*transferred)[family] = transfer->fit->family;
    } else {
      GpuSpec gpu = run.cluster.gpu;
      gpu.name = family;
      run.cluster.efficiency = PriorEfficiency(gpu, TierNames(run));
    }
    prior_families.insert(family);
  }
  return {prior_families.begin(), prior_families.end()};
}

std::vector<ModelSummary> ModelSummaries(const ValidationReport& report) {
  std::map<std::string, std::vector<double>> errors;
  for (const auto& run : report.runs) {
    auto it = run.error_pct.find("step_time_s");
    if (run.status == RunStatus::kOk && it != run.error_pct.end()) {
      errors[run.gpu_family].push_back(it->second);
    }
  }
  std::vector<ModelSummary> out;
  out.reserve(errors.size());
  for (const auto& [model, values] : errors) out.push_back({model, Summarize(values)});
  return out;
}

// Fits on `train` (evaluation-only runs in it are skipped by the fit) and predicts `test`. A test
// GPU the fit has no runs of takes its prior when `transfer_from` is null, else the transfer from
// TransferReference(..., *transfer_from).
SourceFold RunFold(const std::vector<RunSpec>& train, std::vector<RunSpec> test,
                   const std::string& source, const EfficiencyFitOptions& options,
                   const std::string* transfer_from) {
  const bool transfer = transfer_from != nullptr;
  SourceFold fold;
  fold.source = source;
  const EfficiencyFitResult fit = FitEfficiencies(train, options);
  fold.families = fit.families;
  for (const auto& family : fit.families) {
    fold.fitted_ids.insert(fold.fitted_ids.end(), family.fitted_ids.begin(),
                           family.fitted_ids.end());
  }
  std::sort(fold.fitted_ids.begin(), fold.fitted_ids.end());
  const Reference reference =
      transfer ? TransferReference(train, fit, *transfer_from) : Reference{};
  fold.prior_families =
      ApplyFoldEfficiencies(test, fit, transfer ? &reference : nullptr, &fold.transferred_from);
  ValidationOptions validation;
  validation.threads = options.threads;
  validation.holdout_every = 0;
  validation.run = options.run;
  fold.report = ValidateRuns(test, validation);
  fold.step_time = fold.report.all.metrics.at("step_time_s");
  if (transfer) fold.models = ModelSummaries(fold.report);
  return fold;
}

}  // namespace

const char* ToString(CvGrouping by) {
  switch (by) {
    case CvGrouping::kSource:
      return "source";
    case CvGrouping::kGpu:
      return "gpu";
    case CvGrouping::kFramework:
      return "framework";
    case CvGrouping::kScale:
      return "scale";
  }
  return "source";
}

namespace {

// `--cv framework` groups runtimes, not launchers: NeMo drives Megatron-Core (Megatron-LM's
// runtime), Megatron-DeepSpeed runs on the DeepSpeed engine.
std::string FrameworkGroup(Framework framework) {
  switch (framework) {
    case Framework::kMegatron:
    case Framework::kNemo:
      return "megatron";
    case Framework::kDeepSpeed:
    case Framework::kMegatronDeepSpeed:
      return "deepspeed";
    default:
      return RunsName(framework);
  }
}

}  // namespace

std::string CvGroup(const RunSpec& run, CvGrouping by) {
  switch (by) {
    case CvGrouping::kSource:
      return SourceGroup(run.source);
    case CvGrouping::kGpu:
      return GpuFamily(run.cluster.gpu.name);
    case CvGrouping::kFramework:
      return FrameworkGroup(run.framework);
    case CvGrouping::kScale:
      return run.gpus > kScaleFitMaxGpus ? "> " + std::to_string(kScaleFitMaxGpus) + " GPUs" : "";
  }
  return "";
}

const SourceFold* CrossValidationResult::Worst() const {
  const SourceFold* worst = nullptr;
  for (const auto& fold : folds) {
    if (fold.step_time.n == 0) continue;
    if (!worst || fold.step_time.mape_pct > worst->step_time.mape_pct) worst = &fold;
  }
  return worst;
}

CrossValidationResult CrossValidateBySource(const std::vector<RunSpec>& runs,
                                            const EfficiencyFitOptions& options) {
  return CrossValidate(runs, options, CvGrouping::kSource);
}

CrossValidationResult CrossValidate(const std::vector<RunSpec>& runs,
                                    const EfficiencyFitOptions& options, CvGrouping by,
                                    const std::function<void(int64_t, int64_t)>& progress) {
  std::vector<std::string> groups;
  std::vector<std::string> order;
  groups.reserve(runs.size());
  for (const auto& run : runs) {
    groups.push_back(run.evaluation_only ? "" : CvGroup(run, by));
    if (!groups.back().empty() &&
        std::find(order.begin(), order.end(), groups.back()) == order.end()) {
      order.push_back(groups.back());
    }
  }
  // hardware/efficiency.yaml's `unfitted.from`, read once: the GPU folds' and the evaluation
  // fold's transfer reference.
  const std::string unfitted_from = DefaultUnfittedReference();
  const std::string* gpu_transfer = by == CvGrouping::kGpu ? &unfitted_from : nullptr;
  EfficiencyFitOptions fold_options = options;
  fold_options.holdout_every = 0;
  fold_options.progress = nullptr;  // the folds report through `progress`
  // A fold refits only the families its left-out runs belong to; the others are the fits of the
  // folds before (or of the caller's cache, shared between groupings of the same runs).
  if (!fold_options.cache) fold_options.cache = std::make_shared<FamilyFitCache>();
  CrossValidationResult result;
  result.by = by;
  std::vector<double> pooled;
  double mape_sum = 0;
  int folds_with_errors = 0;
  const bool has_evaluation =
      std::any_of(runs.begin(), runs.end(), [](const RunSpec& r) { return r.evaluation_only; });
  const auto folds_total = static_cast<int64_t>(order.size()) + (has_evaluation ? 1 : 0);
  auto report = [&](int64_t done) {
    if (progress) progress(done, folds_total);
  };
  report(0);
  for (const auto& source : order) {
    std::vector<RunSpec> train;
    std::vector<RunSpec> test;
    for (size_t i = 0; i < runs.size(); ++i) {
      if (runs[i].evaluation_only) continue;
      (groups[i] == source ? test : train).push_back(runs[i]);
    }
    result.folds.push_back(RunFold(train, std::move(test), source, fold_options, gpu_transfer));
    const SourceFold& fold = result.folds.back();
    for (const auto& run : fold.report.runs) {
      auto it = run.error_pct.find("step_time_s");
      if (run.status == RunStatus::kOk && it != run.error_pct.end()) pooled.push_back(it->second);
    }
    if (fold.step_time.n > 0) {
      mape_sum += fold.step_time.mape_pct;
      ++folds_with_errors;
    }
    report(static_cast<int64_t>(result.folds.size()));
  }
  std::vector<RunSpec> evaluation;
  std::vector<RunSpec> rest;
  for (const auto& run : runs) (run.evaluation_only ? evaluation : rest).push_back(run);
  if (!evaluation.empty()) {
    // A family none of the other runs fits (B300, GB300) takes what `plan` gives a GPU nobody
    // fitted: the transfer from the fold's reference, as hardware/efficiency.yaml's `unfitted`.
    result.evaluation =
        RunFold(rest, std::move(evaluation), kEvaluationSource, fold_options, &unfitted_from);
    report(folds_total);
  }
  result.overall = Summarize(pooled);
  std::vector<RunOutcome> predicted;
  for (const auto& fold : result.folds) {
    predicted.insert(predicted.end(), fold.report.runs.begin(), fold.report.runs.end());
  }
  result.ranking = RankPlans(predicted);
  if (folds_with_errors > 0) result.source_mean_mape_pct = mape_sum / folds_with_errors;
  return result;
}

}  // namespace paraplan
