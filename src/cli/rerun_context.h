// The PlanReportContext that `simulate` and `explain` hand to report/plan_rerun.h, so that their
// output carries the same --plan string and re-run command as `plan`'s.
#pragma once

#include "cli/common_inputs.h"
#include "report/plan_reporter.h"

namespace paraplan {

PlanReportContext RerunContext(const InputOptions& options, const LoadedInputs& in);

}  // namespace paraplan
