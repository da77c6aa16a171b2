#include "report/plan_reporter.h"

#include "core/error.h"

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
    {"torchtitan", MakeTorchtitanReporter},
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

int64_t EffectiveSeqLen(const ParallelPlan& plan, const PlanReportContext& context) {
  return plan.seq_len > 0 ? plan.seq_len : context.model_seq_len;
}

}  // namespace paraplan
