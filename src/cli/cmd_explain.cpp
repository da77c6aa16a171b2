// `paraplan explain`: why a fixed plan costs what it costs — per-stage time and memory, the
// dominant cost and the knob that would relieve it.
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "cli/fixed_plan_inputs.h"
#include "core/json.h"
#include "report/explain_text.h"
#include "report/step_result_json.h"

namespace paraplan {

void AddExplainCommand(CLI::App& app, CliContext& ctx) {
  auto options = std::make_shared<FixedPlanOptions>();
  auto* sub = app.add_subcommand("explain",
                                 "why a fixed plan costs what it costs: per-stage time and memory");
  sub->footer(
      "Same flags as simulate. Exit 0 also when the plan does not fit.\n\n"
      "Example:\n"
      "  paraplan explain -m llama3-70b -c dgx-h100 -g 64 --plan "
      "\"tp=8,pp=2,micro_batch=1,global_batch=64\"");
  AddFixedPlanOptions(sub, *options);
  sub->callback([&ctx, options] {
    PipelineInput stages;
    const StepResult result = SimulateFixedPlan(*options, &stages);
    if (options->format == "json") {
      Json j = StepResultToJson(result);
      j.Set("advice", TimeAdvice(result) + MemoryAdvice(result));
      *ctx.out << j.Dump(2) << "\n";
    } else {
      *ctx.out << ExplainText(result, stages);
    }
    ctx.exit_code = 0;
  });
}

}  // namespace paraplan
