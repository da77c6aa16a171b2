#include "validate/plan_ranking_json.h"

#include "validate/ranking_by_knob.h"

namespace paraplan {

Json RankingSummaryJson(const RankingSummary& s) {
  Json out = Json::MakeObject();
  out.Set("groups", s.groups).Set("runs", s.runs).Set("pairs", s.pairs);
  out.Set("concordant", s.concordant).Set("discordant", s.discordant).Set("tied", s.tied);
  out.Set("agreement", s.agreement);
  out.Set("top1_groups", s.top1_groups).Set("top1_hits", s.top1_hits);
  out.Set("mean_regret_pct", s.mean_regret_pct);
  return out;
}

namespace {

Json GroupJson(const RankingGroup& g) {
  Json ids = Json::MakeArray();
  for (const RankedRun& r : g.runs) ids.Push(r.id);
  Json misordered = Json::MakeArray();
  for (const MisorderedPair& m : g.misordered) {
    Json pair = Json::MakeObject();
    pair.Set("faster", m.faster).Set("slower", m.slower).Set("tied", m.tied);
    misordered.Push(std::move(pair));
  }
  Json out = Json::MakeObject();
  out.Set("source", g.source).Set("job", g.job).Set("metric", g.metric);
  out.Set("ids", std::move(ids));
  out.Set("pairs", g.pairs).Set("concordant", g.concordant).Set("discordant", g.discordant);
  out.Set("tied", g.tied).Set("agreement", g.Agreement());
  Json predicted_best = Json::MakeArray();
  for (const std::string& id : g.predicted_best) predicted_best.Push(id);
  out.Set("measured_best", g.measured_best).Set("predicted_best", std::move(predicted_best));
  out.Set("top1", g.top1_counted ? Json(g.top1_hit) : Json());
  out.Set("regret_pct", g.regret_pct);
  out.Set("misordered", std::move(misordered));
  return out;
}

Json KnobChangeJson(const KnobChange& c) {
  Json sources = Json::MakeArray();
  for (const std::string& source : c.sources) sources.Push(source);
  Json out = Json::MakeObject();
  out.Set("knob", c.knob).Set("from", c.from).Set("to", c.to);
  out.Set("pairs", c.pairs).Set("ordered", c.ordered).Set("concordant", c.concordant);
  out.Set("tied", c.tied).Set("agreement", c.Agreement());
  out.Set("ratio_error_pct", c.ratio_error_pct);
  out.Set("sources", std::move(sources));
  return out;
}

}  // namespace

Json RankingReportJson(const RankingReport& report) {
  Json sources = Json::MakeArray();
  for (const auto& [source, summary] : report.sources) {
    Json s = RankingSummaryJson(summary);
    s.Set("source", source);
    sources.Push(std::move(s));
  }
  Json groups = Json::MakeArray();
  for (const RankingGroup& g : report.groups) groups.Push(GroupJson(g));
  Json out = Json::MakeObject();
  out.Set("tolerance", report.tolerance);
  out.Set("pooled", RankingSummaryJson(report.pooled));
  out.Set("source_mean_agreement", report.source_mean_agreement);
  out.Set("sources", std::move(sources));
  out.Set("groups", std::move(groups));
  Json by_knob = Json::MakeArray();
  for (const KnobChange& c : RankingByKnob(report)) by_knob.Push(KnobChangeJson(c));
  out.Set("by_knob", std::move(by_knob));
  return out;
}

}  // namespace paraplan
