// `--format json`: DESIGN.md's plan document — {"plans": [...], "pareto": [...], "searched",
// "feasible", "seconds"} with StepResultToJson per plan; when nothing fits, also
// "why_nothing_fits" and the "closest" plans.
#include "core/json.h"
#include "report/plan_reporter.h"
#include "report/step_result_json.h"

namespace paraplan {

namespace {

Json ResultArray(const std::vector<StepResult>& results) {
  Json array = Json::MakeArray();
  for (const StepResult& r : results) array.Push(StepResultToJson(r));
  return array;
}

class JsonReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext&, const SearchResult& result) override {
    Json doc = Json::MakeObject();
    doc.Set("plans", ResultArray(result.plans));
    doc.Set("pareto", ResultArray(result.pareto));
    doc.Set("searched", result.searched);
    doc.Set("feasible", result.feasible);
    doc.Set("seconds", result.seconds);
    if (result.plans.empty()) {
      doc.Set("why_nothing_fits", result.why_nothing_fits);
      doc.Set("closest", ResultArray(result.closest));
    }
    out() << doc.Dump(2) << "\n";
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeJsonReporter(std::ostream& out) {
  return std::make_unique<JsonReporter>(out);
}

}  // namespace paraplan
