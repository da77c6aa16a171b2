#include "report/export_check.h"

#include "search/plan_summary.h"

namespace paraplan {

Framework ExportFramework(const std::string& format) {
  if (format == "megatron") return Framework::kMegatron;
  if (format == "torchtitan" || format == "torchtitan-py") return Framework::kTorchtitan;
  if (format == "deepspeed") return Framework::kDeepSpeed;
  return Framework::kAny;
}

std::vector<std::string> ExportViolations(Framework framework, const PlanReportContext& context,
                                          const ParallelPlan& plan) {
  return FrameworkViolations(framework, context.model, plan);
}

bool WriteNotRunnable(std::ostream& out, Framework framework, const PlanReportContext& context,
                      const ParallelPlan& plan) {
  const std::vector<std::string> why = ExportViolations(framework, context, plan);
  if (why.empty()) return false;
  out << "# NOT RUNNABLE in " << DisplayName(framework) << ": the best plan (" << PlanSummary(plan)
      << ") cannot be launched there, so no config is written:\n";
  for (const std::string& w : why) out << "#   - " << w << "\n";
  out << "# Re-run with --framework " << ToString(framework) << " to search only plans "
      << DisplayName(framework) << " can run.\n";
  return true;
}

}  // namespace paraplan
