#include "validate/plan_ranking_text.h"

#include <algorithm>
#include <vector>

#include "core/format.h"
#include "core/strings.h"
#include "core/text_table.h"
#include "validate/ranking_by_knob.h"

namespace paraplan {

namespace {

using Row = std::vector<std::string>;

std::string Pct(double fraction) {
  return FormatFixed(fraction * 100.0, 1) + "%";
}

std::string Top1Cell(const RankingSummary& s) {
  return std::to_string(s.top1_hits) + "/" + std::to_string(s.top1_groups);
}

Row SummaryRow(const std::string& name, const RankingSummary& s) {
  return {name,
          std::to_string(s.groups),
          std::to_string(s.runs),
          std::to_string(s.pairs),
          s.pairs > 0 ? Pct(s.agreement) : "-",
          std::to_string(s.discordant),
          std::to_string(s.tied),
          Top1Cell(s),
          s.top1_groups > 0 ? FormatFixed(s.mean_regret_pct, 1) + "%" : "-"};
}

std::vector<Row> SourceRows(const RankingReport& report) {
  std::vector<Row> rows = {
      {"source", "jobs", "runs", "pairs", "agreement", "reversed", "tied", "top-1", "mean regret"}};
  for (const auto& [source, summary] : report.sources) rows.push_back(SummaryRow(source, summary));
  rows.push_back(SummaryRow("pooled", report.pooled));
  return rows;
}

// The measured or predicted value as the metric states it (the time-like value inverted back).
std::string MetricValue(const std::string& metric, double time_like) {
  if (metric == "step_time_s") return FormatFixed(time_like, time_like < 1 ? 3 : 2) + " s";
  const double value = 1.0 / time_like;
  return metric == "mfu" ? FormatFixed(value, 3) : FormatFixed(value, 0);
}

const RankedRun* Find(const RankingGroup& g, const std::string& id) {
  for (const RankedRun& r : g.runs) {
    if (r.id == id) return &r;
  }
  return nullptr;
}

// "L03 (measured 1.2 s, predicted 1.35 s) before L07 (measured 1.31 s, predicted 1.3 s)"
std::string PairText(const RankingGroup& g, const MisorderedPair& m) {
  auto side = [&](const std::string& id) {
    const RankedRun* r = Find(g, id);
    return id + " (measured " + MetricValue(g.metric, r->measured) + ", predicted " +
           MetricValue(g.metric, r->predicted) + ")";
  };
  return side(m.faster) + (m.tied ? " vs " : " faster than ") + side(m.slower) +
         (m.tied ? ": predicted equal" : "");
}

std::string GroupLine(const RankingGroup& g, size_t max_pairs) {
  std::string out = g.source + " — " + g.job + " (" + g.metric + ", " +
                    std::to_string(g.runs.size()) + " runs): agreement " + Pct(g.Agreement()) +
                    " over " + std::to_string(g.pairs) + " pairs";
  if (g.top1_counted) {
    out += "; top-1 " + std::string(g.top1_hit ? "hit" : "miss") + " (measured fastest " +
           g.measured_best + ", predicted fastest " + Join(g.predicted_best, " = ") + ", regret " +
           FormatFixed(g.regret_pct, 1) + "%)";
  }
  out += ".";
  const size_t shown = std::min(max_pairs, g.misordered.size());
  for (size_t i = 0; i < shown; ++i) out += (i == 0 ? " " : "; ") + PairText(g, g.misordered[i]);
  if (g.misordered.size() > shown) {
    out += "; and " + std::to_string(g.misordered.size() - shown) + " more";
  }
  return out;
}

// The knob changes with at least `min_pairs` pairs, one row each.
std::vector<Row> KnobRows(const RankingReport& report, int64_t min_pairs) {
  std::vector<Row> rows = {
      {"knob change", "pairs", "ordered", "agreement", "predicted / measured ratio", "sources"}};
  for (const KnobChange& c : RankingByKnob(report)) {
    if (c.pairs < min_pairs) continue;
    std::string sources = c.sources.front();
    if (c.sources.size() > 1) sources += " +" + std::to_string(c.sources.size() - 1);
    rows.push_back({c.knob + " " + c.from + " -> " + c.to, std::to_string(c.pairs),
                    std::to_string(c.ordered), c.ordered > 0 ? Pct(c.Agreement()) : "-",
                    (c.ratio_error_pct >= 0 ? "+" : "") + FormatFixed(c.ratio_error_pct, 1) + "%",
                    sources});
  }
  return rows;
}

}  // namespace

std::string RankingLine(const RankingReport& report) {
  const RankingSummary& s = report.pooled;
  if (s.groups == 0) return "";
  return "ranking: " + std::to_string(s.groups) + " jobs, " + std::to_string(s.pairs) +
         " pairs > " + FormatShortest(report.tolerance * 100.0) + "% apart, agreement " +
         (s.pairs > 0 ? Pct(s.agreement) : std::string("-")) + " (reversed " +
         std::to_string(s.discordant) + ", tied " + std::to_string(s.tied) +
         "; unweighted mean over sources " + Pct(report.source_mean_agreement) + "); top-1 " +
         Top1Cell(s) + " jobs, mean regret " + FormatFixed(s.mean_regret_pct, 1) + "%\n";
}

std::string RankingDefinition(double tolerance) {
  const std::string tol = FormatShortest(tolerance * 100.0) + " %";
  return "Does paraplan order alternative plans as they measured? Runs of one *job* (the same "
         "source, model, cluster, GPU count, sequence length and global batch in tokens) are "
         "alternative plans for it. Within each job of two or more runs, every pair whose measured "
         "times differ by more than " +
         tol +
         " of the faster is checked: *agreement* is the share the prediction orders the same way "
         "(a predicted tie counts half, so 50 % is chance); *top-1* counts the jobs whose "
         "predicted "
         "fastest run measured within " +
         tol +
         " of the fastest; *regret* is how much slower the predicted fastest measured than the "
         "fastest. A job is ranked by step time, or by throughput or MFU where most of its runs "
         "state no step time (docs/validation/README.md, \"Ranking of alternative plans\").\n\n";
}

std::string RankingMarkdown(const RankingReport& report, const std::string& heading,
                            const std::string& intro, size_t worst) {
  if (report.pooled.groups == 0) return "";
  std::string out = heading + "\n\n" + intro;
  out += RankingLine(report) + "\n";
  out += MarkdownTable(SourceRows(report)) + "\n";
  const std::vector<Row> knob_rows = KnobRows(report, 2);
  if (knob_rows.size() > 1) {
    out +=
        "By the one knob two plans of a job differ in (dp and the batch aside; pairs of two "
        "or more): *predicted / measured ratio* is the geometric mean of the predicted time "
        "ratio (after / before the change) over the measured one, minus 1: below 0 the change "
        "measured slower than predicted, above 0 faster (validate/ranking_by_knob.h).\n\n" +
        MarkdownTable(knob_rows) + "\n";
  }
  const auto groups = MostMisordered(report, worst);
  if (!groups.empty()) {
    out += "Most mis-ordered jobs:\n\n";
    for (const RankingGroup* g : groups) out += "- " + GroupLine(*g, 3) + "\n";
    out += "\n";
  }
  return out;
}

std::string RankingTable(const RankingReport& report, size_t worst) {
  if (report.pooled.groups == 0) return "";
  TextTable table(SourceRows(report).front(),
                  {false, true, true, true, true, true, true, true, true});
  const auto rows = SourceRows(report);
  for (size_t i = 1; i < rows.size(); ++i) table.AddRow(rows[i]);
  std::string out = "\n" + RankingLine(report) + table.Render() + "\n";
  for (const RankingGroup* g : MostMisordered(report, worst)) out += "  " + GroupLine(*g, 2) + "\n";
  return out;
}

}  // namespace paraplan
