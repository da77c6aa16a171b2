#include "validate/validation_report.h"

#include "core/thread_pool.h"
#include "validate/holdout.h"

namespace paraplan {

SummarySet SummarizeRuns(const std::vector<RunOutcome>& runs,
                         const std::function<bool(const RunOutcome&)>& include) {
  SummarySet set;
  for (const char* metric : kValidationMetrics) {
    std::vector<double> errors;
    for (const auto& run : runs) {
      if (!include(run) || run.status != RunStatus::kOk) continue;
      auto it = run.error_pct.find(metric);
      if (it != run.error_pct.end()) errors.push_back(it->second);
    }
    set.metrics[metric] = Summarize(errors);
  }
  for (const auto& run : runs) {
    if (!include(run)) continue;
    if (run.status != RunStatus::kOk) {
      ++set.errors;
      continue;
    }
    ++set.fits_n;
    if (run.fits) ++set.fits_fit;
  }
  return set;
}

void SummarizeReport(ValidationReport& report, int64_t holdout_every) {
  std::vector<HoldoutKey> keys;
  keys.reserve(report.runs.size());
  for (const auto& run : report.runs) keys.push_back({run.id, run.gpu_family});
  std::vector<bool> held = HeldOutRuns(keys, holdout_every);
  for (size_t i = 0; i < report.runs.size(); ++i) report.runs[i].held_out = held[i];
  report.holdout_every = holdout_every;
  report.all = SummarizeRuns(report.runs, [](const RunOutcome&) { return true; });
  report.fitted = SummarizeRuns(report.runs, [](const RunOutcome& r) { return !r.held_out; });
  report.held_out = SummarizeRuns(report.runs, [](const RunOutcome& r) { return r.held_out; });
}

std::vector<RunSpec> LoadValidationRuns(const std::string& path) {
  return LoadRunsFile(path);
}

ValidationReport ValidateRuns(const std::vector<RunSpec>& runs, const ValidationOptions& options) {
  ValidationReport report;
  report.runs.resize(runs.size());
  ParallelFor(runs.size(), options.threads,
              [&](size_t i) { report.runs[i] = EvaluateRun(runs[i], options.run); });
  SummarizeReport(report, options.holdout_every);
  return report;
}

}  // namespace paraplan
