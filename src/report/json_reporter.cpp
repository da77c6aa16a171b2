// `--format json`: DESIGN.md's plan document — {"plans": [...], "pareto": [...], "searched",
// "feasible", "seconds"} with StepResultToJson per plan; when nothing fits, also
// "why_nothing_fits" and the "closest" plans. With --tokens/--train-days each plan also has a
// "budget" object (budget_report.h).
#include "core/json.h"
#include "report/budget_report.h"
#include "report/plan_reporter.h"
#include "report/step_result_json.h"

namespace paraplan {

namespace {

Json ResultArray(const PlanReportContext& ctx, const std::vector<StepResult>& results) {
  Json array = Json::MakeArray();
  for (const StepResult& r : results) {
    Json j = StepResultToJson(r);
    if (ctx.budget) j.Set("budget", BudgetJson(ctx, r));
    array.Push(std::move(j));
  }
  return array;
}

class JsonReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    Json doc = Json::MakeObject();
    doc.Set("plans", ResultArray(ctx, result.plans));
    doc.Set("pareto", ResultArray(ctx, result.pareto));
    doc.Set("searched", result.searched);
    doc.Set("feasible", result.feasible);
    doc.Set("seconds", result.seconds);
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
