// What `simulate` and `explain` share: the common inputs, resolved to one fixed plan that obeys
// the rules, and the cost model for it. Built-in efficiency defaults come from
// hardware/efficiency.yaml here (the library itself does no file I/O).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "cli/common_inputs.h"
#include "evaluate/step_model.h"
#include "plan/parallel_plan.h"

namespace paraplan {

struct FixedPlanOptions {
  InputOptions inputs;
  std::string format = "table";
  std::string trace;  // --trace FILE (Chrome trace JSON)
  bool analytic = false;
};

// -m -c -g --plan --set --format --trace --analytic.
void AddFixedPlanOptions(CLI::App* sub, FixedPlanOptions& options);

struct FixedPlanRun {
  StepModel model;
  ParallelPlan plan;
};

// Loads inputs, applies efficiency defaults, resolves the plan and checks every rule; throws
// InputError listing the violated rules.
FixedPlanRun LoadFixedPlan(const FixedPlanOptions& options);

// Estimate or simulate as the options say; writes the trace when asked.
StepResult RunFixedPlan(const FixedPlanRun& run, const FixedPlanOptions& options);

}  // namespace paraplan
