// What makes a reported plan re-runnable: its `--plan` string (plan/plan_string.h) and the
// `paraplan simulate` command line that reproduces its step time and memory, with the same model,
// cluster, GPU count and --set overrides the search ran with.
#pragma once

#include <string>
#include <vector>

#include "core/json.h"
#include "cost/step_result.h"
#include "plan/parallel_plan.h"
#include "report/plan_reporter.h"

namespace paraplan {

// `paraplan simulate -m M -c C -g G [--set ...] --plan "<PlanString>"`.
std::string RerunCommand(const PlanReportContext& context, const ParallelPlan& plan);

// Adds "plan_string", "rerun", "model", "cluster", "gpus" and the resolved seq_len to a plan's
// JSON object (fields added beside DESIGN.md's, none renamed).
void AddRerunFields(Json& object, const PlanReportContext& context, const ParallelPlan& plan);

// "Re-run a plan: paraplan simulate ... --plan \"<rank's string>\"" then one line per plan,
// "  1  tp=8,pp=2,...", numbered from 1 as the table ranks them.
std::string RerunLines(const PlanReportContext& context, const std::vector<StepResult>& plans);

// A word for a shell command line: as is when it is plain, else in single quotes.
std::string ShellWord(const std::string& word);

}  // namespace paraplan
