// What `simulate` and `explain` share: the common inputs, resolved to one fixed plan that obeys
// the rules, and the cost model for it.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/common_inputs.h"
#include "cost/step_result.h"
#include "plan/parallel_plan.h"
#include "sim/pipeline_input.h"

namespace paraplan {

struct FixedPlanOptions {
  InputOptions inputs;
  std::string format = "table";
  std::string trace;  // --trace FILE (Chrome trace JSON)
  bool analytic = false;
};

// -m -c -g --plan --set --format --trace --analytic.
void AddFixedPlanOptions(CLI::App* sub, FixedPlanOptions& options);

// What a fixed-plan command ran: its resolved inputs, the plan and its result.
struct FixedPlanRun {
  LoadedInputs inputs;
  ParallelPlan plan;
  StepResult result;
};

// Loads the inputs, resolves the plan and runs it (evaluate/fixed_plan.h): estimate or simulate
// as the options say, writing the trace when asked; `stages` (when set) gets the simulator's
// input. Throws InputError listing the violated rules.
FixedPlanRun SimulateFixedPlan(const FixedPlanOptions& options, PipelineInput* stages = nullptr);

}  // namespace paraplan
