#include "report/plan_reporter.h"

#include <ostream>

#include "core/error.h"
#include "core/format.h"
#include "core/units.h"
#include "report/plan_rerun.h"

namespace paraplan {

namespace {

using MakeFn = std::unique_ptr<PlanReporter> (*)(std::ostream&);

struct FormatEntry {
  const char* name;
  MakeFn make;
};

constexpr FormatEntry kFormats[] = {
    {"table", MakeTableReporter},
    {"json", MakeJsonReporter},
    {"csv", MakeCsvReporter},
    {"megatron", MakeMegatronReporter},
    {"torchtitan", MakeTorchtitanReporter},  // the TOML job file DESIGN.md's contract names
    {"torchtitan-py", MakeTorchtitanConfigReporter},
    {"deepspeed", MakeDeepSpeedReporter},
    {"html", MakeHtmlReporter},
};

}  // namespace

std::vector<std::string> PlanReportFormats() {
  std::vector<std::string> names;
  for (const FormatEntry& f : kFormats) names.emplace_back(f.name);
  return names;
}

std::unique_ptr<PlanReporter> MakePlanReporter(const std::string& format, std::ostream& out) {
  std::string valid;
  for (const FormatEntry& f : kFormats) {
    if (format == f.name) return f.make(out);
    valid += (valid.empty() ? "" : ", ") + std::string(f.name);
  }
  throw InputError("--format: unknown format '" + format + "'; valid values: " + valid);
}

void WriteBestPlanHeader(std::ostream& out, const char* tool, const PlanReportContext& context,
                         const StepResult& best) {
  out << "# " << tool << " for the best plan paraplan found: " << context.model_name << " on "
      << context.gpus << " GPUs (" << context.cluster_name << ")\n"
      << "# predicted: step " << FormatFixed(best.step_time_s, 3) << " s, peak memory "
      << FormatFixed(BytesToGiB(best.peak_memory_bytes), 1) << " GiB per GPU, MFU "
      << FormatFixed(best.mfu * 100.0, 1) << " %\n"
      << "# re-run: " << RerunCommand(context, best.plan) << "\n";
}

int64_t EffectiveSeqLen(const ParallelPlan& plan, const PlanReportContext& context) {
  return plan.seq_len > 0 ? plan.seq_len : context.model_seq_len;
}

}  // namespace paraplan
