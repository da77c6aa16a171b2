// `paraplan validate`: every run of a runs file evaluated (in parallel, reported in file order),
// with error summaries over all runs, the runs the efficiency fit sees, and the held-out runs.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "config/runs_file.h"
#include "validate/metric_summary.h"
#include "validate/plan_ranking.h"
#include "validate/run_evaluation.h"

namespace paraplan {

struct ValidationOptions {
  int threads = 0;            // runs evaluated at once (0 = all hardware threads)
  int64_t holdout_every = 4;  // every K-th run per GPU family is held out (0 = none)
  RunEvaluationOptions run;
  // Called with (runs done, runs in all) after each run, one call at a time; may be empty.
  std::function<void(int64_t, int64_t)> progress;
};

// The error summary of a set of runs: one MetricSummary per kValidationMetrics entry (n = 0 when
// no run measured it) and how many evaluated runs fit in memory.
struct SummarySet {
  std::map<std::string, MetricSummary> metrics;
  int64_t fits_n = 0;    // runs evaluated (status ok)
  int64_t fits_fit = 0;  // of those, predicted to fit
  int64_t errors = 0;    // runs that could not be evaluated
};

struct ValidationReport {
  std::string file;
  std::vector<RunOutcome> runs;  // file order
  int64_t holdout_every = 0;
  SummarySet all;
  SummarySet fitted;           // runs not held out (and not evaluation-only)
  SummarySet held_out;         // runs held out of the efficiency fit
  SummarySet evaluation_only;  // runs no fit may see (RunSpec::evaluation_only)
  RankingReport ranking;       // alternative plans of one job ordered as measured? (all runs)
};

// Summary of the runs for which `include` is true.
SummarySet SummarizeRuns(const std::vector<RunOutcome>& runs,
                         const std::function<bool(const RunOutcome&)>& include);

// Marks held-out runs and fills the summaries (and the ranking) from report.runs. Evaluation-only
// runs take no part in the held-out split (the split of the other runs is what it would be without
// them).
void SummarizeReport(ValidationReport& report, int64_t holdout_every);

// LoadRunsFile: each run's cluster carries its GPU family's default efficiencies
// (hardware/efficiency.yaml), applied where the cluster is loaded.
std::vector<RunSpec> LoadValidationRuns(const std::string& path);

// Evaluates every run (a bad run becomes an error outcome; the others go on).
ValidationReport ValidateRuns(const std::vector<RunSpec>& runs, const ValidationOptions& options);

}  // namespace paraplan
