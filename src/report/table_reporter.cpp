// `--format table`: the readable report; every number carries its unit.
#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "core/text_table.h"
#include "core/units.h"
#include "plan/knob_table.h"
#include "plan/parallel_plan.h"
#include "report/plan_reporter.h"
#include "report/plan_rerun.h"
#include "report/search_notes.h"
#include "report/stage_layout_text.h"
#include "search/objective.h"
#include "search/rerank.h"

namespace paraplan {

namespace {

std::string Percent(double fraction) {
  return FormatFixed(fraction * 100.0, 1) + " %";
}

std::string ScheduleText(const ParallelPlan& p) {
  std::string s = ToString(p.schedule);
  if (p.vpp > 1) s += " x" + std::to_string(p.vpp);
  return s;
}

std::string OverlapText(const ParallelPlan& p) {
  std::string s;
  if (p.overlap_tp_comm) s += ToString(ParallelDim::kTp);
  if (p.overlap_ep_comm) s += s.empty() ? ToString(ParallelDim::kEp) : "+ep";
  return s.empty() ? "-" : s;
}

std::string PlansTable(const PlanReportContext& ctx, const std::vector<StepResult>& plans) {
  TextTable table(
      {"rank", KnobName(Knob::kTp), KnobName(Knob::kPp), KnobName(Knob::kDp), KnobName(Knob::kCp),
       KnobName(Knob::kEp), "mb", KnobName(Knob::kRecompute), KnobName(Knob::kZero), "sp",
       KnobName(Knob::kSchedule), "overlap", "step", "throughput", "MFU", "memory", "cost"},
      {true, true, true, true, true, true, true, false, true, false, false, false, true, true, true,
       true, true});
  for (size_t i = 0; i < plans.size(); ++i) {
    const StepResult& r = plans[i];
    const ParallelPlan& p = r.plan;
    const double cost =
        GpuHoursPerBillionTokens(r.step_time_s, ctx.gpus, TokensPerStep(p, ctx.model_seq_len));
    const auto tokens_per_s = static_cast<int64_t>(std::llround(r.tokens_per_s_per_gpu));
    table.AddRow({std::to_string(i + 1), std::to_string(p.tp), std::to_string(p.pp),
                  std::to_string(p.dp), std::to_string(p.cp),
                  p.ep > 1 && p.etp > 1 ? std::to_string(p.ep) + "/" + std::to_string(p.etp)
                                        : std::to_string(p.ep),
                  std::to_string(p.micro_batch), ToString(p.recompute), std::to_string(p.zero),
                  p.sequence_parallel ? "yes" : "no", ScheduleText(p), OverlapText(p),
                  (r.simulated ? "" : "~") + FormatFixed(r.step_time_s, 3) + " s",
                  GroupThousands(tokens_per_s) + " tok/s/GPU", Percent(r.mfu),
                  FormatFixed(BytesToGiB(r.peak_memory_bytes), 1) + " GiB" +
                      (ctx.headroom_pct > 0 && !InsideHeadroom(r, ctx.headroom_pct) ? " !" : ""),
                  FormatFixed(cost, 2) + " GPU-h/Btok"});
  }
  return table.Render();
}

// "! tight: ..." when a ranked plan's peak is above the headroom; empty otherwise.
std::string HeadroomNote(const PlanReportContext& ctx, const std::vector<StepResult>& plans) {
  if (ctx.headroom_pct <= 0) return "";
  const bool tight = std::any_of(plans.begin(), plans.end(), [&](const StepResult& r) {
    return !InsideHeadroom(r, ctx.headroom_pct);
  });
  if (!tight) return "";
  return "  ! tight: peak memory above " + FormatShortest(100 - ctx.headroom_pct) +
         " % of the GPU's (--headroom " + FormatShortest(ctx.headroom_pct) +
         " %, default validate's memory error, docs/validation.md); ranked after the plans "
         "inside it.\n";
}

class TableReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    out() << "paraplan plan: " << ctx.model_name << " on " << GroupThousands(ctx.gpus) << " x "
          << ctx.gpu_name << " (" << ctx.cluster_name << "), ranked by " << ToString(ctx.objective)
          << "\n";
    const double share = result.searched > 0 ? static_cast<double>(result.feasible) /
                                                   static_cast<double>(result.searched)
                                             : 0.0;
    out() << "searched " << GroupThousands(result.searched) << " plans, ";
    if (result.pruned > 0) {  // search/plan_bounds.h: pruned plans are never costed
      out() << GroupThousands(result.pruned) << " pruned by bounds ("
            << GroupThousands(result.pruned_memory) << " cannot fit), "
            << GroupThousands(result.evaluated) << " evaluated, " << GroupThousands(result.feasible)
            << " of those fit in ";
    } else {
      out() << GroupThousands(result.feasible) << " fit (" << Percent(share) << ") in ";
    }
    out() << FormatFixed(result.seconds, 2) << " s\n"
          << SkippedText(result) << MemoryReliefText(result) << "\n";
    if (result.plans.empty()) {
      out() << result.why_nothing_fits;
      return;
    }
    out() << "Best plans (step time from the event simulator; cost in GPU-hours per billion "
             "tokens)"
          << FoldedText(result) << ":\n"
          << PlansTable(ctx, result.plans) << TableLegend() << HeadroomNote(ctx, result.plans)
          << "\n"
          << RerunLines(ctx, result.plans) << "\n";
    const std::string stages = StageLayoutText(result.plans.front());  // empty when pp = 1
    if (!stages.empty()) out() << "Best plan, per stage:\n" << stages << "\n";
    if (result.pareto.empty()) return;
    out() << "Pareto front (step time against peak memory per GPU" << ParetoShownText(result)
          << FrontEstimatedText(result) << "):\n"
          << PlansTable(ctx, result.pareto);
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeTableReporter(std::ostream& out) {
  return std::make_unique<TableReporter>(out);
}

}  // namespace paraplan
