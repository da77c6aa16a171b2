// Leave-one-source-out cross-validation of the efficiency fit (`paraplan validate --cv source`).
// For each source in turn, the default efficiencies are refitted (FitEfficiencies, the one fit
// routine, with nothing held out) on the runs of every OTHER source, and the left-out source's
// runs are predicted with that fold's numbers. A left-out run whose GPU family has no run in the
// other sources is predicted with the family's prior (PriorEfficiency: the sourced starting
// points), never with a fit that saw it. The error of those predictions says how the model
// transfers to a paper or report nobody fitted it to.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "calib/efficiency_fit.h"
#include "config/runs_file.h"
#include "validate/metric_summary.h"
#include "validate/validation_report.h"

namespace paraplan {

// The grouping key of a run: its `source` up to the first comma or opening parenthesis, with
// surrounding spaces removed ("Narayanan et al., SC'21, ..." → "Narayanan et al."); runs without
// a source form the group "(no source)".
std::string SourceGroup(const std::string& source);

// One fold: the runs of one source, predicted by a fit that never saw them.
struct SourceFold {
  std::string source;                       // SourceGroup of its runs
  std::vector<std::string> fitted_ids;      // the other sources' runs the fold was fitted on
  std::vector<std::string> prior_families;  // families of left-out runs with no fitted runs
  std::vector<FamilyFit> families;          // the fold's fit, per family
  ValidationReport report;                  // the left-out runs, file order, fold efficiencies
  MetricSummary step_time;                  // step-time error over report.runs
};

struct CrossValidationResult {
  std::vector<SourceFold> folds;    // by first appearance of the source in the runs file
  MetricSummary overall;            // step-time error pooled over every left-out prediction
  double source_mean_mape_pct = 0;  // unweighted mean of the folds' step-time MAPE (n > 0 only)
  // The evaluation-only runs (RunSpec::evaluation_only), never in a fold: predicted by one fit on
  // every other run (all sources), source kEvaluationSource; absent when there are none.
  std::optional<SourceFold> evaluation;
};

// The `source` of the evaluation fold.
inline constexpr const char* kEvaluationSource = "independent evaluation (never fitted)";

// Leave-one-source-out over `runs` (runs with a load error are reported by their fold but never
// fitted). Evaluation-only runs are in no fold and no fold's fit; they are predicted by a fit on
// all the other runs (CrossValidationResult::evaluation). options.holdout_every is ignored: each
// fold fits on all the other sources' runs. Deterministic whatever options.threads.
CrossValidationResult CrossValidateBySource(const std::vector<RunSpec>& runs,
                                            const EfficiencyFitOptions& options);

}  // namespace paraplan
