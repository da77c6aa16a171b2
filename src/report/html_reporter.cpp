// `--format html`: one self-contained page (inline CSS and SVG, no scripts, no external
// references) with the ranked plans, the budget when asked, the best plan's per-stage memory bars
// and simulated timeline, the advice (what fits, what would help) and the Pareto front. Numbers
// are the JSON report's, rounded as the table prints them.
#include <cmath>

#include "core/format.h"
#include "core/units.h"
#include "plan/knob_table.h"
#include "report/budget_report.h"
#include "report/html_page.h"
#include "report/html_svg.h"
#include "report/plan_reporter.h"
#include "report/search_notes.h"
#include "search/plan_summary.h"

namespace paraplan {

namespace {

std::string Cell(const std::string& text, const char* key = nullptr) {
  std::string td = key ? "<td data-key=\"" + std::string(key) + "\">" : "<td>";
  return td + HtmlEscape(text) + "</td>";
}

std::string PlanRows(const std::vector<StepResult>& plans) {
  std::string rows;
  for (size_t i = 0; i < plans.size(); ++i) {
    const StepResult& r = plans[i];
    const ParallelPlan& p = r.plan;
    rows += "<tr>" + Cell(std::to_string(i + 1), "rank") + Cell(PlanSummary(p), "plan") +
            Cell(std::to_string(p.tp), KnobName(Knob::kTp)) +
            Cell(std::to_string(p.pp), KnobName(Knob::kPp)) +
            Cell(std::to_string(p.dp), KnobName(Knob::kDp)) +
            Cell(std::to_string(p.cp), KnobName(Knob::kCp)) +
            Cell(std::to_string(p.ep), KnobName(Knob::kEp)) +
            Cell(std::to_string(p.micro_batch), KnobName(Knob::kMicroBatch)) +
            Cell(ToString(p.schedule), KnobName(Knob::kSchedule)) +
            Cell(FormatFixed(r.step_time_s, 3), "step_time_s") +
            Cell(FormatFixed(r.tokens_per_s_per_gpu, 0), "tokens_per_s_per_gpu") +
            Cell(FormatFixed(r.mfu * 100, 1), "mfu_pct") +
            Cell(FormatFixed(BytesToGiB(r.peak_memory_bytes), 1), "memory_GiB") + "</tr>\n";
  }
  return rows;
}

std::string PlanTable(const char* id, const std::vector<StepResult>& plans) {
  return std::string("<table id=\"") + id +
         "\"><thead><tr><th>rank</th><th>plan</th><th>tp</th><th>pp</th><th>dp</th><th>cp</th>"
         "<th>ep</th><th>micro-batch</th><th>schedule</th><th>step (s)</th>"
         "<th>throughput (tok/s/GPU)</th><th>MFU (%)</th><th>peak memory (GiB)</th></tr></thead>"
         "<tbody>\n" +
         PlanRows(plans) + "</tbody></table>\n";
}

// Which front points are analytical estimates (docs/search.md, "Simulation"), or "".
std::string FrontEstimatedNote(const std::vector<StepResult>& pareto) {
  std::string ranks;
  for (size_t i = 0; i < pareto.size(); ++i) {
    if (pareto[i].simulated) continue;
    ranks += (ranks.empty() ? "" : ", ") + std::to_string(i + 1);
  }
  if (ranks.empty()) return "";
  return "<p id=\"front_estimated\">Analytical estimates, not simulated (their schedules were "
         "over the simulator's budget): rank " +
         ranks + ".</p>\n";
}

// How far the front runs ("52 points past 2.832 s per step ... not shown"), or "".
std::string FrontCutNote(const SearchResult& result) {
  const std::string cut = ParetoCutText(result, "");
  if (cut.empty()) return "";
  return "<p id=\"pareto_cut\">" + HtmlEscape(cut) + ".</p>\n";
}

std::string BudgetSection(const PlanReportContext& ctx, const std::vector<StepResult>& plans) {
  if (!ctx.budget) return "";
  const bool energy = ctx.budget->power.gpu_tdp_W > 0;
  std::string rows;
  for (size_t i = 0; i < plans.size(); ++i) {
    const PlanBudget b =
        ComputeBudget(plans[i], ctx.gpus, EffectiveSeqLen(plans[i].plan, ctx), *ctx.budget);
    const bool priced = ctx.budget->price_per_gpu_hour > 0;
    const bool finite = std::isfinite(b.wall_days.value);
    rows +=
        "<tr>" + Cell(std::to_string(i + 1)) + Cell(FormatBanded(b.step_s, 3), "step_band") +
        Cell(FormatBanded(b.days, 1), "days") +
        Cell(FormatFixed(std::round(b.gpu_hours.value), 0), "gpu_hours") +
        Cell(priced ? FormatFixed(b.usd.value, 0) : "-", "usd") +
        Cell(FormatFixed(b.goodput.goodput * 100, 1), "goodput") +
        Cell(finite ? FormatFixed(b.interruptions, 0) : "-", "interruptions") +
        Cell(std::isfinite(b.goodput.interval_s) ? FormatFixed(b.goodput.interval_s / 60, 0) : "-",
             "checkpoint_min") +
        Cell(finite ? FormatBanded(b.wall_days, 1) : "never", "wall_days") +
        Cell(finite ? FormatFixed(std::round(b.wall_gpu_hours.value), 0) : "-", "wall_gpu_hours") +
        Cell(priced && finite ? FormatFixed(b.wall_usd.value, 0) : "-", "wall_usd") +
        Cell(energy && finite ? FormatFixed(b.MWh.value, 0) : "-", "mwh") + "</tr>\n";
  }
  return "<h2>Budget</h2><p>" + HtmlEscape(ctx.band_note) +
         "</p><p id=\"goodput_note\">Failure-free figures first; then goodput (the share of "
         "wall-clock time that trains, with failures, checkpoints and restarts counted), the "
         "interruptions expected, the checkpoint interval, and the wall-clock figures" +
         std::string(ctx.budget->tokens > 0 ? ", by which the plans are ranked" : "") +
         ".</p><table id=\"budget\"><thead><tr><th>rank</th><th>step (s, band)</th>"
         "<th>time to train, no failures (days, band)</th><th>GPU-hours, no failures</th>"
         "<th>cost, no failures (USD)</th><th>goodput (%)</th><th>interruptions</th>"
         "<th>checkpoint every (min)</th><th>wall-clock (days, band)</th>"
         "<th>GPU-hours</th><th>cost (USD)</th><th>energy (MWh)</th></tr></thead>"
         "<tbody>\n" +
         rows + "</tbody></table>\n";
}

std::string Advice(const SearchResult& result) {
  std::string s = "<h2>Advice</h2>\n";
  if (result.plans.empty()) {
    s += "<pre id=\"advice\">" + HtmlEscape(result.why_nothing_fits) + "</pre>\n";
    if (!result.closest.empty()) {
      s += "<h3>Closest plans (do not fit)</h3>\n" + PlanTable("closest", result.closest);
    }
    return s;
  }
  const StepResult& best = result.plans.front();
  s += "<ul id=\"advice\"><li>" +
       HtmlEscape("The best plan fits with " +
                  FormatFixed(BytesToGiB(best.memory_capacity_bytes - best.peak_memory_bytes), 1) +
                  " GiB per GPU to spare.") +
       "</li>";
  for (const std::string& note : best.notes) s += "<li>" + HtmlEscape(note) + "</li>";
  return s + "</ul>\n";
}

class HtmlReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    const std::string title = "paraplan plan: " + ctx.model_name + " on " +
                              std::to_string(ctx.gpus) + " x " + ctx.gpu_name;
    std::string body =
        "<h1>" + HtmlEscape(title) + "</h1>\n<p id=\"summary\">" +
        HtmlEscape(ctx.cluster_name + "; searched " + std::to_string(result.searched) + " plans, " +
                   std::to_string(result.feasible) + " fit, in " + FormatFixed(result.seconds, 2) +
                   " s") +
        "</p>\n";
    if (!result.plans.empty()) {
      const StepResult& best = result.plans.front();
      if (!result.memory_relief.empty()) {
        body += "<p id=\"memory_relief\">" + HtmlEscape(MemoryReliefText(result)) + "</p>\n";
      }
      body += "<h2>Ranked plans</h2>\n" + PlanTable("plans", result.plans) +
              BudgetSection(ctx, result.plans) + "<h2>Memory per stage (best plan)</h2>\n" +
              MemoryBarsSvg(best);
      if (ctx.timeline) {
        body += "<h2>Simulated timeline (best plan)</h2>\n" + TimelineSvg(*ctx.timeline);
      }
    }
    body += Advice(result);
    if (!result.pareto.empty()) {
      body += "<h2>Pareto front (step time against peak memory)</h2>\n" +
              FrontEstimatedNote(result.pareto) + FrontCutNote(result) +
              PlanTable("pareto", result.pareto);
    }
    out() << HtmlPage(title, body);
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeHtmlReporter(std::ostream& out) {
  return std::make_unique<HtmlReporter>(out);
}

}  // namespace paraplan
