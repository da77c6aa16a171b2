// `paraplan explain`: why a fixed plan costs what it costs — per-stage time and memory, the
// dominant cost and the knob that would relieve it; for a plan that does not fit, the nearest
// plan that does (search/nearest_fit.h).
#include <memory>
#include <optional>
#include <ostream>

#include "cli/command.h"
#include "cli/fixed_plan_inputs.h"
#include "cli/rerun_context.h"
#include "core/json.h"
#include "evaluate/step_model.h"
#include "report/explain_advice.h"
#include "report/explain_text.h"
#include "report/layer_ops_text.h"
#include "report/plan_rerun.h"
#include "report/step_result_json.h"
#include "search/nearest_fit.h"
#include "search/step_model_evaluator.h"

namespace paraplan {

namespace {

std::optional<NearestFitResult> SearchNearestFit(const FixedPlanRun& run) {
  const StepModel model(run.inputs.model, run.inputs.cluster, run.inputs.gpus);
  const StepModelEvaluator evaluator(model);
  std::optional<NearestFit> fit = FindNearestFit(
      PlanSpace(model.model(), model.gpus(), NearestFitConstraints(run.plan)), evaluator, run.plan);
  if (!fit && FixesLayerSplit(run.plan)) {  // the split pins pp x vpp: let the balancer split
    fit = FindNearestFit(
        PlanSpace(model.model(), model.gpus(), NearestFitConstraints(run.plan, false)), evaluator,
        run.plan);
  }
  if (!fit) return std::nullopt;
  StepResult result = model.Simulate(fit->plan);
  return NearestFitResult{std::move(*fit), std::move(result)};
}

}  // namespace

void AddExplainCommand(CLI::App& app, CliContext& ctx) {
  auto options = std::make_shared<FixedPlanOptions>();
  auto* sub = app.add_subcommand("explain",
                                 "why a fixed plan costs what it costs: per-stage time and memory");
  sub->footer(
      "Same flags as simulate. Exit 0 also when the plan does not fit; then the nearest plan\n"
      "that fits (fewest knobs changed, fastest among those) is searched and shown.\n\n"
      "Example:\n"
      "  paraplan explain -m llama3-70b -c dgx-h100 -g 64 --plan "
      "\"tp=8,pp=2,micro_batch=1,global_batch=64\"");
  AddFixedPlanOptions(sub, *options);
  sub->callback([&ctx, options] {
    PipelineInput stages;
    const FixedPlanRun run = SimulateFixedPlan(*options, &stages);
    const StepResult& result = run.result;
    const PlanReportContext rc = RerunContext(options->inputs, run.inputs);
    std::optional<NearestFitResult> nearest;
    if (!result.fits) nearest = SearchNearestFit(run);
    if (options->format == "json") {
      Json j = StepResultToJson(result);
      j.Set("advice", TimeAdvice(result) + MemoryAdvice(result));
      j.Set("advice_items", AdviceItemsJson(result, nearest, !result.fits, rc));
      j.Set("layer_ops", LayerOpsJson(run.inputs.model, run.inputs.cluster, result.plan));
      AddRerunFields(j, rc, run.plan);
      *ctx.out << j.Dump(2) << "\n";
    } else {
      *ctx.out << ExplainText(result, stages);
      *ctx.out << LayerOpsText(run.inputs.model, run.inputs.cluster, result.plan);
      if (!result.fits) *ctx.out << NearestFitText(nearest, rc);
      *ctx.out << "re-run: " << RerunCommand(rc, run.plan) << "\n";
    }
    ctx.exit_code = 0;
  });
}

}  // namespace paraplan
