#include "validate/validation_json.h"

#include "plan/knob_table.h"
#include "validate/plan_ranking_json.h"

namespace paraplan {

namespace {

Json MetricsJson(const std::map<std::string, double>& values) {
  Json out = Json::MakeObject();
  for (const char* metric : kValidationMetrics) {
    auto it = values.find(metric);
    if (it != values.end()) out.Set(metric, it->second);
  }
  return out;
}

}  // namespace

Json ValidationPlanJson(const ParallelPlan& plan) {
  Json out = Json::MakeObject();
  out.Set(KnobName(Knob::kTp), plan.tp)
      .Set(KnobName(Knob::kPp), plan.pp)
      .Set(KnobName(Knob::kDp), plan.dp)
      .Set(KnobName(Knob::kCp), plan.cp);
  out.Set(KnobName(Knob::kEp), plan.ep)
      .Set(KnobName(Knob::kEtp), plan.etp)
      .Set(KnobName(Knob::kVpp), plan.vpp);
  out.Set(KnobName(Knob::kMicroBatch), plan.micro_batch)
      .Set(KnobName(Knob::kGlobalBatch), plan.global_batch);
  out.Set(KnobName(Knob::kRecompute), ToString(plan.recompute));
  out.Set(KnobName(Knob::kSequenceParallel), plan.sequence_parallel);
  out.Set(KnobName(Knob::kZero), plan.zero);
  out.Set(KnobName(Knob::kPrecision), ToString(plan.precision));
  out.Set(KnobName(Knob::kSchedule), ToString(plan.schedule));
  return out;
}

Json RunOutcomeJson(const RunOutcome& run) {
  const bool ok = run.status == RunStatus::kOk;
  Json out = Json::MakeObject();
  out.Set("id", run.id);
  out.Set("status", ok ? "ok" : "error");
  out.Set("message", run.message);
  out.Set("fits", ok && run.fits);
  out.Set("plan", ok && run.result ? ValidationPlanJson(run.result->plan) : Json());
  out.Set("predicted", MetricsJson(run.predicted));
  out.Set("measured", MetricsJson(run.measured));
  out.Set("error_pct", MetricsJson(run.error_pct));
  Json searched = Json::MakeArray();
  for (const auto& knob : run.searched) searched.Push(knob);
  out.Set("searched", std::move(searched));
  if (!run.searched.empty()) {
    Json spread = Json::MakeArray();
    spread.Push(run.step_min_s);
    spread.Push(run.step_max_s);
    out.Set("step_time_spread_s", std::move(spread));
  }
  Json conventions = Json::MakeArray();
  for (const auto& knob : run.conventions) conventions.Push(knob);
  out.Set("conventions", std::move(conventions));
  out.Set("held_out", run.held_out);
  out.Set("evaluation_only", run.evaluation_only);
  // Only for runs whose timed step includes an evaluation pass: other runs' JSON is unchanged.
  if (run.eval_pass_s > 0) out.Set("eval_pass_s", run.eval_pass_s);
  return out;
}

Json SummarySetJson(const SummarySet& set) {
  Json out = Json::MakeObject();
  for (const char* metric : kValidationMetrics) {
    auto it = set.metrics.find(metric);
    const MetricSummary summary = it == set.metrics.end() ? MetricSummary{} : it->second;
    Json m = Json::MakeObject();
    m.Set("n", summary.n).Set("mape_pct", summary.mape_pct).Set("max_abs_pct", summary.max_abs_pct);
    out.Set(metric, std::move(m));
  }
  Json fits = Json::MakeObject();
  fits.Set("n", set.fits_n).Set("fit", set.fits_fit);
  out.Set("fits", std::move(fits));
  out.Set("errors", set.errors);
  return out;
}

Json ValidationReportJson(const ValidationReport& report) {
  Json runs = Json::MakeArray();
  Json held_ids = Json::MakeArray();
  for (const auto& run : report.runs) {
    runs.Push(RunOutcomeJson(run));
    if (run.held_out) held_ids.Push(run.id);
  }
  Json holdout = Json::MakeObject();
  holdout.Set("every", report.holdout_every);
  holdout.Set("ids", std::move(held_ids));
  holdout.Set("fitted", SummarySetJson(report.fitted));
  holdout.Set("held_out", SummarySetJson(report.held_out));
  Json out = Json::MakeObject();
  out.Set("runs", std::move(runs));
  out.Set("summary", SummarySetJson(report.all));
  out.Set("holdout", std::move(holdout));
  out.Set("evaluation_only", SummarySetJson(report.evaluation_only));
  out.Set("ranking", RankingReportJson(report.ranking));
  return out;
}

}  // namespace paraplan
