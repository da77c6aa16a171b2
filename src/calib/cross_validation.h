// Cross-validation of the efficiency fit by group (`paraplan validate --cv
// source|gpu|framework|scale`). Leave-one-source-out: for each source in turn, the default
// efficiencies are refitted (FitEfficiencies, the one fit routine, with nothing held out) on the
// runs of every OTHER source, and the left-out source's runs are predicted with that fold's
// numbers. A left-out run whose GPU family has no run in the other sources is predicted with the
// family's prior (PriorEfficiency: the sourced starting points), never with a fit that saw it. The
// error of those predictions says how the model transfers to a paper or report nobody fitted it to.
// The other groupings fold the same way: `gpu` leaves one GPU family (hardware/gpu_family.h:
// Ampere, Hopper, Blackwell) out, and its runs take exactly what a GPU without fitted runs gets
// (TransferredEfficiency from the fold's fit of another family, hardware/efficiency_transfer.h),
// never its prior; `framework` leaves one framework (FrameworkOf: stated or inferred from the
// source) out; `scale` fits on the runs at
// <= kScaleFitMaxGpus GPUs and predicts those above (one group).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "calib/efficiency_fit.h"
#include "config/runs_file.h"
#include "validate/metric_summary.h"
#include "validate/plan_ranking.h"
#include "validate/validation_report.h"
#include "validate/validation_text.h"

namespace paraplan {

// What the runs are grouped by.
enum class CvGrouping { kSource, kGpu, kFramework, kScale };

// "source", "gpu", "framework", "scale".
const char* ToString(CvGrouping by);

// The largest GPU count `--cv scale` fits on; runs above it form the one predicted group.
inline constexpr int64_t kScaleFitMaxGpus = 1024;

// The group a run is left out with; "" for a run that is never left out (`scale`: <= 1,024 GPUs).
std::string CvGroup(const RunSpec& run, CvGrouping by);

// The step-time error of the runs of one GPU model inside a fold (`--cv gpu`).
struct ModelSummary {
  std::string model;  // GpuModel
  MetricSummary step_time;
};

// One fold: the runs of one group, predicted by a fit that never saw them.
struct SourceFold {
  std::string source;                       // the group: SourceGroup of its runs for `source`
  std::vector<std::string> fitted_ids;      // the other sources' runs the fold was fitted on
  std::vector<std::string> prior_families;  // families of left-out runs with no fitted runs
  std::vector<FamilyFit> families;          // the fold's fit, per family
  ValidationReport report;                  // the left-out runs, file order, fold efficiencies
  MetricSummary step_time;                  // step-time error over report.runs
  // `gpu`: the fitted model each left-out model's efficiencies were transferred from ("H100"),
  // and the step-time error of each model inside the family, in FamilyModels order.
  std::map<std::string, std::string> transferred_from;
  std::vector<ModelSummary> models;
};

struct CrossValidationResult {
  CvGrouping by = CvGrouping::kSource;
  std::vector<SourceFold> folds;    // by first appearance of the source in the runs file
  MetricSummary overall;            // step-time error pooled over every left-out prediction
  double source_mean_mape_pct = 0;  // unweighted mean of the folds' step-time MAPE (n > 0 only)
  // The ranking figure (validate/plan_ranking.h) over every fold's left-out predictions pooled:
  // a job's runs keep their held-out predictions, whichever fold predicted each.
  RankingReport ranking;
  // The evaluation-only runs (RunSpec::evaluation_only), never in a fold: predicted by one fit on
  // every other run (all sources), source kEvaluationSource; absent when there are none.
  std::optional<SourceFold> evaluation;
  // The fold with the largest step-time MAPE (first of equals; nullptr when none has runs).
  const SourceFold* Worst() const;
};

// The `source` of the evaluation fold.
inline constexpr const char* kEvaluationSource = "independent evaluation (never fitted)";

// Leave-one-source-out over `runs` (runs with a load error are reported by their fold but never
// fitted). Evaluation-only runs are in no fold and no fold's fit; they are predicted by a fit on
// all the other runs (CrossValidationResult::evaluation). options.holdout_every is ignored: each
// fold fits on all the other sources' runs. Deterministic whatever options.threads.
CrossValidationResult CrossValidateBySource(const std::vector<RunSpec>& runs,
                                            const EfficiencyFitOptions& options);

// The same folds by any grouping (CrossValidateBySource is `by` = kSource). Groups are in order of
// first appearance in `runs`; for kScale, runs at <= kScaleFitMaxGpus are in every fit.
// `progress`, when set, is called after each fold with (folds done, folds in all; the
// evaluation-only prediction counts as one).
CrossValidationResult CrossValidate(const std::vector<RunSpec>& runs,
                                    const EfficiencyFitOptions& options, CvGrouping by,
                                    const std::function<void(int64_t, int64_t)>& progress = {});

}  // namespace paraplan
