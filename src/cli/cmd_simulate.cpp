// `paraplan simulate`: memory and step time of one fixed plan (table or DESIGN.md's JSON).
#include <memory>
#include <ostream>

#include "cli/command.h"
#include "cli/fixed_plan_inputs.h"
#include "cli/rerun_context.h"
#include "report/explain_text.h"
#include "report/plan_rerun.h"
#include "report/step_result_json.h"

namespace paraplan {

void AddSimulateCommand(CLI::App& app, CliContext& ctx) {
  auto options = std::make_shared<FixedPlanOptions>();
  auto* sub = app.add_subcommand("simulate", "predict memory and step time of one fixed plan");
  sub->footer(
      "Every knob takes one value; dp defaults to gpus/(tp*cp*pp), global_batch is required.\n"
      "Exit 0 also when the plan does not fit (fits: false); 2 on bad input or a broken rule.\n\n"
      "Examples:\n"
      "  paraplan simulate -m llama3-70b -c dgx-h100 -g 64 --plan "
      "\"tp=8,pp=2,micro_batch=1,global_batch=64\"\n"
      "  paraplan simulate -m gpt3-175b -c dgx-a100-80gb -g 1024 --plan "
      "\"tp=8,pp=16,vpp=2,global_batch=1536,recompute=full\" --format json --trace t.json");
  AddFixedPlanOptions(sub, *options);
  sub->callback([&ctx, options] {
    const FixedPlanRun run = SimulateFixedPlan(*options);
    const StepResult& result = run.result;
    const PlanReportContext rc = RerunContext(options->inputs, run.inputs);
    if (options->format == "json") {
      Json j = StepResultToJson(result);
      AddRerunFields(j, rc, run.plan);
      *ctx.out << j.Dump(2) << "\n";
    } else {
      *ctx.out << StepResultTable(result) << "re-run: " << RerunCommand(rc, run.plan) << "\n";
    }
    ctx.exit_code = 0;
  });
}

}  // namespace paraplan
