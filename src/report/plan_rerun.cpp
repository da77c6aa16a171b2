#include "report/plan_rerun.h"

#include "plan/knob_table.h"
#include "plan/plan_string.h"

namespace paraplan {

std::string ShellWord(const std::string& word) {
  bool plain = !word.empty();
  for (char c : word) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '-' || c == '_' || c == '.' || c == '/' || c == '=' || c == ',' ||
                    c == ':' || c == '+';
    plain = plain && ok;
  }
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string RerunCommand(const PlanReportContext& ctx, const ParallelPlan& plan) {
  std::string cmd = "paraplan simulate -m " +
                    ShellWord(ctx.model_arg.empty() ? ctx.model_name : ctx.model_arg) + " -c " +
                    ShellWord(ctx.cluster_arg.empty() ? ctx.cluster_name : ctx.cluster_arg) +
                    " -g " + std::to_string(ctx.gpus);
  for (const std::string& set : ctx.sets) cmd += " --set " + ShellWord(set);
  return cmd + " --plan \"" + PlanString(plan, ctx.model_seq_len) + "\"";
}

std::string RerunLines(const PlanReportContext& ctx, const std::vector<StepResult>& plans) {
  if (plans.empty()) return "";
  std::string cmd = RerunCommand(ctx, plans.front().plan);
  cmd = cmd.substr(0, cmd.find(" --plan "));
  std::string text = "Re-run a plan exactly: " + cmd + " --plan \"<its string>\"\n";
  for (size_t i = 0; i < plans.size(); ++i) {
    const std::string rank = std::to_string(i + 1);
    text += std::string(rank.size() < 4 ? 4 - rank.size() : 0, ' ') + rank + "  " +
            PlanString(plans[i].plan, ctx.model_seq_len) + "\n";
  }
  return text;
}

void AddRerunFields(Json& object, const PlanReportContext& ctx, const ParallelPlan& plan) {
  object.Set("plan_string", PlanString(plan, ctx.model_seq_len));
  object.Set("rerun", RerunCommand(ctx, plan));
  object.Set("model", ctx.model_name);
  object.Set("cluster", ctx.cluster_name);
  object.Set("gpus", ctx.gpus);
  object.Set(KnobName(Knob::kSeqLen), EffectiveSeqLen(plan, ctx));
}

}  // namespace paraplan
