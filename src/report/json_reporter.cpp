// `--format json`: DESIGN.md's plan document — {"plans": [...], "pareto": [...], "searched",
// "feasible", "seconds"} with StepResultToJson per plan (plus its plan_string, rerun command,
// model, cluster, gpus and resolved seq_len) and "skipped" (the rule tally); when nothing fits,
// also "why_nothing_fits" and the "closest" plans. With --tokens/--train-days each plan also has
// a "budget" object (budget_report.h).
#include "core/json.h"
#include "report/budget_report.h"
#include "report/plan_reporter.h"
#include "report/plan_rerun.h"
#include "report/search_notes.h"
#include "report/step_result_json.h"
#include "search/rerank.h"

namespace paraplan {

namespace {

// folded[i] (when given): the equivalent plans folded into results[i] (search/plan_folding.h).
Json ResultArray(const PlanReportContext& ctx, const std::vector<StepResult>& results,
                 const std::vector<int64_t>& folded = {}) {
  Json array = Json::MakeArray();
  for (size_t i = 0; i < results.size(); ++i) {
    Json j = StepResultToJson(results[i]);
    AddRerunFields(j, ctx, results[i].plan);
    if (i < folded.size()) j.Set("folded", folded[i]);
    if (ctx.headroom_pct > 0)
      j.Set("inside_headroom", InsideHeadroom(results[i], ctx.headroom_pct));
    if (ctx.budget) j.Set("budget", BudgetJson(ctx, results[i]));
    array.Push(std::move(j));
  }
  return array;
}

class JsonReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    Json doc = Json::MakeObject();
    doc.Set("plans", ResultArray(ctx, result.plans, result.plans_folded));
    doc.Set("pareto", ResultArray(ctx, result.pareto));
    doc.Set("searched", result.searched);
    doc.Set("feasible", result.feasible);
    doc.Set("pruned", result.pruned);
    doc.Set("evaluated", result.evaluated);
    doc.Set("seconds", result.seconds);
    doc.Set("skipped", SkippedJson(result));
    doc.Set("folded", result.folded);
    doc.Set("pareto_total", result.pareto_total);
    doc.Set("pareto_cut", result.pareto_cut);
    doc.Set("pareto_cut_step_s", result.pareto_cut_step_s);
    doc.Set("front_estimated", result.front_estimated);
    doc.Set("memory_relief", result.memory_relief);
    if (result.plans.empty()) {
      doc.Set("why_nothing_fits", result.why_nothing_fits);
      PlanReportContext unfit = ctx;  // plans that do not fit get no budget
      unfit.budget = nullptr;
      doc.Set("closest", ResultArray(unfit, result.closest));
    }
    out() << doc.Dump(2) << "\n";
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeJsonReporter(std::ostream& out) {
  return std::make_unique<JsonReporter>(out);
}

}  // namespace paraplan
