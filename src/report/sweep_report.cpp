#include "report/sweep_report.h"

#include <cmath>

#include "core/format.h"
#include "core/json.h"
#include "core/text_table.h"
#include "report/budget_report.h"
#include "report/step_result_json.h"
#include "search/objective.h"
#include "search/plan_summary.h"

namespace paraplan {

namespace {

const SweepPoint* Base(const std::vector<SweepPoint>& points) {
  for (const SweepPoint& p : points) {
    if (!p.result.plans.empty()) return &p;
  }
  return nullptr;
}

double CostPerBillion(const PlanReportContext& ctx, const StepResult& r, int64_t gpus) {
  return GpuHoursPerBillionTokens(r.step_time_s, gpus, TokensPerStep(r.plan, ctx.model_seq_len));
}

}  // namespace

double ScalingEfficiency(const SweepPoint& base, const SweepPoint& point) {
  if (base.result.plans.empty() || point.result.plans.empty()) return 0;
  const double base_rate = base.result.plans.front().tokens_per_s_per_gpu;
  return base_rate > 0 ? point.result.plans.front().tokens_per_s_per_gpu / base_rate : 0;
}

void WriteSweepTable(std::ostream& out, PlanReportContext ctx,
                     const std::vector<SweepPoint>& points) {
  out << "paraplan plan: " << ctx.model_name << " on " << ctx.gpu_name << " (" << ctx.cluster_name
      << "), best plan per GPU count, ranked by " << ToString(ctx.objective) << "\n";
  const bool budget = ctx.budget != nullptr, priced = budget && ctx.budget->price_per_gpu_hour > 0;
  std::vector<std::string> header = {"GPUs", "best plan", "step", "throughput", "scaling", "cost"};
  if (budget) {
    header.push_back("goodput");
    header.push_back("time to train");
  }
  if (priced) header.push_back("dollars");
  std::vector<bool> right(header.size(), true);
  right[1] = false;
  TextTable table(header, right);
  const SweepPoint* base = Base(points);
  for (const SweepPoint& p : points) {
    if (p.result.plans.empty()) {
      std::vector<std::string> row(header.size(), "-");
      row[0] = GroupThousands(p.gpus);
      row[1] = "nothing fits";
      table.AddRow(row);
      continue;
    }
    ctx.gpus = p.gpus;
    const StepResult& best = p.result.plans.front();
    std::vector<std::string> row = {
        GroupThousands(p.gpus),
        PlanSummary(best.plan),
        FormatFixed(best.step_time_s, 3) + " s",
        GroupThousands(static_cast<int64_t>(std::llround(best.tokens_per_s_per_gpu))) +
            " tok/s/GPU",
        FormatFixed(ScalingEfficiency(*base, p) * 100.0, 1) + " %",
        FormatFixed(CostPerBillion(ctx, best, p.gpus), 2) + " GPU-h/Btok"};
    if (budget) {
      const PlanBudget b =
          ComputeBudget(best, p.gpus, EffectiveSeqLen(best.plan, ctx), *ctx.budget);
      // With failures, checkpoints and restarts (cost/goodput.h).
      const bool done = b.goodput.finishes;
      row.push_back(done ? FormatFixed(b.goodput.goodput * 100, 1) + " %" : "never finishes");
      row.push_back(done ? FormatBanded(b.wall_days, 1) + " days" : "-");
      if (priced) {
        row.push_back(done ? "$" +
                                 FormatBanded({b.wall_usd.value / 1e6, b.wall_usd.low / 1e6,
                                               b.wall_usd.high / 1e6},
                                              2) +
                                 " M"
                           : "-");
      }
    }
    table.AddRow(row);
  }
  out << table.Render() << "\n";
  out << "scaling: throughput per GPU relative to " << (base ? GroupThousands(base->gpus) : "-")
      << " GPUs; cost in GPU-hours per billion tokens";
  if (budget) {
    out << "; goodput: the share of wall-clock time that trains, with failures, checkpoints and "
           "restarts (docs/cost-model.md, \"Goodput\"); time to train and dollars include it"
        << "; band: " << ctx.band_note;
  }
  out << "\n";
}

void WriteSweepJson(std::ostream& out, PlanReportContext ctx,
                    const std::vector<SweepPoint>& points) {
  Json sweep = Json::MakeArray();
  const SweepPoint* base = Base(points);
  for (const SweepPoint& p : points) {
    Json j = Json::MakeObject();
    j.Set("gpus", p.gpus);
    j.Set("searched", p.result.searched);
    j.Set("feasible", p.result.feasible);
    if (p.result.plans.empty()) {
      j.Set("why_nothing_fits", p.result.why_nothing_fits);
    } else {
      ctx.gpus = p.gpus;
      const StepResult& best = p.result.plans.front();
      Json plan = StepResultToJson(best);
      if (ctx.budget) plan.Set("budget", BudgetJson(ctx, best));
      j.Set("best", std::move(plan));
      j.Set("scaling_efficiency", ScalingEfficiency(*base, p));
      j.Set("gpu_hours_per_billion_tokens", CostPerBillion(ctx, best, p.gpus));
    }
    sweep.Push(std::move(j));
  }
  Json doc = Json::MakeObject();
  doc.Set("sweep", std::move(sweep));
  doc.Set("scaling_base_gpus", base ? base->gpus : int64_t{0});
  out << doc.Dump(2) << "\n";
}

}  // namespace paraplan
