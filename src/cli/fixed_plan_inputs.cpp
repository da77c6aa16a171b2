#include "cli/fixed_plan_inputs.h"

#include <fstream>

#include "core/error.h"
#include "core/output_file.h"
#include "evaluate/fixed_plan.h"
#include "report/chrome_trace.h"

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

FixedPlanRun SimulateFixedPlan(const FixedPlanOptions& options, PipelineInput* stages) {
  LoadedInputs in = LoadInputs(options.inputs);
  std::vector<TimelineEvent> timeline;
  FixedPlanRequest request;
  request.analytic = options.analytic;
  request.timeline = options.trace.empty() ? nullptr : &timeline;
  request.stages = stages;
  FixedPlanOutcome run = RunFixedPlan(in.model, in.cluster, in.gpus, in.plan, request);
  const auto& violations = run.violations;
  if (!violations.empty()) {
    std::string message = "the plan breaks " + std::to_string(violations.size()) + " rule" +
                          (violations.size() > 1 ? "s" : "") + ":";
    for (const std::string& v : violations) message += "\n  - " + v;
    throw InputError("--plan: " + message);
  }
  if (!options.trace.empty()) {
    WriteOutputFile(options.trace, ChromeTraceJson(timeline, "paraplan simulate"), "--trace");
  }
  return FixedPlanRun{std::move(in), run.plan, std::move(*run.result)};
}

}  // namespace paraplan
