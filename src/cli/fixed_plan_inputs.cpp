#include "cli/fixed_plan_inputs.h"

#include <fstream>

#include "config/efficiency_loader.h"
#include "core/error.h"
#include "plan/plan_resolve.h"
#include "plan/plan_rules.h"
#if __has_include("report/chrome_trace.h")
#include "report/chrome_trace.h"
#define PARAPLAN_HAS_CHROME_TRACE 1
#endif

namespace paraplan {

void AddFixedPlanOptions(CLI::App* sub, FixedPlanOptions& options) {
  AddInputOptions(sub, options.inputs, /*need_gpus=*/true);
  AddGlobalBatchOption(sub, options.inputs);
  sub->add_option("--format", options.format, "output format")
      ->check(CLI::IsMember({"table", "json"}));
  sub->add_option("--trace", options.trace,
                  "write the simulated timeline as a Chrome trace (open in Perfetto)");
  sub->add_flag("--analytic", options.analytic,
                "use the closed-form estimate instead of the event-driven simulator");
}

FixedPlanRun LoadFixedPlan(const FixedPlanOptions& options) {
  LoadedInputs in = LoadInputs(options.inputs);
  ApplyDefaultEfficiency(in.cluster);
  ParallelPlan plan = ResolvePlan(in.plan, in.gpus, in.model);
  const auto violations = PlanViolations(in.model, in.cluster, in.gpus, plan);
  if (!violations.empty()) {
    std::string message = "the plan breaks " + std::to_string(violations.size()) + " rule" +
                          (violations.size() > 1 ? "s" : "") + ":";
    for (const std::string& v : violations) message += "\n  - " + v;
    throw InputError("--plan: " + message);
  }
  return FixedPlanRun{StepModel(std::move(in.model), std::move(in.cluster), in.gpus),
                      std::move(plan)};
}

StepResult RunFixedPlan(const FixedPlanRun& run, const FixedPlanOptions& options) {
  if (options.analytic && options.trace.empty()) return run.model.Estimate(run.plan);
  std::vector<TimelineEvent> timeline;
  StepResult result = run.model.Simulate(run.plan, options.trace.empty() ? nullptr : &timeline);
  if (!options.trace.empty()) {
    std::ofstream out(options.trace, std::ios::binary);
    if (!out) throw InputError("--trace: cannot write " + options.trace);
#ifdef PARAPLAN_HAS_CHROME_TRACE
    out << ChromeTraceJson(timeline, "paraplan simulate");
#else
    throw InputError("--trace: the Chrome trace writer is not part of this build");
#endif
  }
  if (options.analytic) return run.model.Estimate(run.plan);
  return result;
}

}  // namespace paraplan
