// Whether a launch-config export (megatron, torchtitan, deepspeed) can reproduce a plan: a plan
// the framework cannot run is never exported as flags plus comments; the reporter writes why
// instead, and `plan` exits 1 (nothing to launch).
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "plan/framework_caps.h"
#include "report/plan_reporter.h"

namespace paraplan {

// The framework a --format exports to (kAny for table, json, csv, html).
Framework ExportFramework(const std::string& format);

// Why `framework` cannot run `plan` (empty when it can); without a model in the context, only the
// plan's knobs are checked.
std::vector<std::string> ExportViolations(Framework framework, const PlanReportContext& context,
                                          const ParallelPlan& plan);

// Writes the "not runnable" comment block and returns true when there are violations.
bool WriteNotRunnable(std::ostream& out, Framework framework, const PlanReportContext& context,
                      const ParallelPlan& plan);

}  // namespace paraplan
