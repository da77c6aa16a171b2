#include "validate/validation_report.h"

#include <mutex>

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
  std::vector<size_t> index;  // report.runs index of keys[k]
  for (size_t i = 0; i < report.runs.size(); ++i) {
    report.runs[i].held_out = false;
    if (report.runs[i].evaluation_only) continue;
    keys.push_back({report.runs[i].id, report.runs[i].gpu_family});
    index.push_back(i);
  }
  const std::vector<bool> held = HeldOutRuns(keys, holdout_every);
  for (size_t k = 0; k < keys.size(); ++k) report.runs[index[k]].held_out = held[k];
  report.holdout_every = holdout_every;
  report.all = SummarizeRuns(report.runs, [](const RunOutcome&) { return true; });
  report.fitted = SummarizeRuns(
      report.runs, [](const RunOutcome& r) { return !r.held_out && !r.evaluation_only; });
  report.held_out = SummarizeRuns(report.runs, [](const RunOutcome& r) { return r.held_out; });
  report.evaluation_only =
      SummarizeRuns(report.runs, [](const RunOutcome& r) { return r.evaluation_only; });
  report.ranking = RankPlans(report.runs);
}

std::vector<RunSpec> LoadValidationRuns(const std::string& path) {
  return LoadRunsFile(path);
}

ValidationReport ValidateRuns(const std::vector<RunSpec>& runs, const ValidationOptions& options) {
  ValidationReport report;
  report.runs.resize(runs.size());
  std::mutex mutex;
  int64_t done = 0;
  ParallelFor(runs.size(), options.threads, [&](size_t i) {
    report.runs[i] = EvaluateRun(runs[i], options.run);
    if (!options.progress) return;
    std::lock_guard<std::mutex> lock(mutex);
    options.progress(++done, static_cast<int64_t>(runs.size()));
  });
  SummarizeReport(report, options.holdout_every);
  return report;
}

}  // namespace paraplan
