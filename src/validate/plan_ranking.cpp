#include "validate/plan_ranking.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>

#include "core/format.h"
#include "core/text_table.h"
#include "plan/plan_string.h"
#include "validate/validation_text.h"

namespace paraplan {

namespace {

// The metrics a job may be ranked by, in order of preference; step_time_s is lower-is-faster,
// the others higher-is-faster.
constexpr std::array<const char*, 3> kRankMetrics = {"step_time_s", "tokens_per_s_per_gpu", "mfu"};

// Lower is faster: the step time itself, or the inverse of a throughput.
double TimeLike(const std::string& metric, double value) {
  return metric == "step_time_s" ? value : 1.0 / value;
}

bool Has(const std::map<std::string, double>& values, const char* metric) {
  auto it = values.find(metric);
  return it != values.end() && it->second > 0 && std::isfinite(it->second);
}

std::string JobText(const RunOutcome& run) {
  std::string text = run.model_name + " on " + run.cluster + ", " + std::to_string(run.gpus) +
                     " GPUs, seq " + std::to_string(run.seq_len) + ", ";
  text += run.global_batch_tokens > 0 ? GroupThousands(run.global_batch_tokens) + " tokens per step"
                                      : std::string("batch not stated");
  return text;
}

// The metric the most runs of the job measured (first in kRankMetrics of equals); "" if none.
std::string JobMetric(const std::vector<const RunOutcome*>& runs) {
  std::string best;
  size_t best_n = 0;
  for (const char* metric : kRankMetrics) {
    const auto n = static_cast<size_t>(std::count_if(
        runs.begin(), runs.end(), [&](const RunOutcome* r) { return Has(r->measured, metric); }));
    if (n > best_n) {
      best = metric;
      best_n = n;
    }
  }
  return best;
}

void RankGroup(RankingGroup& g, double tolerance) {
  const size_t n = g.runs.size();
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = i + 1; j < n; ++j) {
      const JudgedPair pair = JudgePair(g.runs[i], g.runs[j], tolerance);
      if (pair.order == PairOrder::kWithinTolerance) continue;
      ++g.pairs;
      if (pair.order == PairOrder::kConcordant) {
        ++g.concordant;
      } else if (pair.order == PairOrder::kTied) {
        ++g.tied;
        g.misordered.push_back({pair.faster->id, pair.slower->id, true});
      } else {
        ++g.discordant;
        g.misordered.push_back({pair.faster->id, pair.slower->id, false});
      }
    }
  }
  size_t measured_best = 0;
  size_t predicted_best = 0;
  for (size_t i = 1; i < n; ++i) {
    if (g.runs[i].measured < g.runs[measured_best].measured) measured_best = i;
    if (g.runs[i].predicted < g.runs[predicted_best].predicted) predicted_best = i;
  }
  g.measured_best = g.runs[measured_best].id;
  const double predicted_min = g.runs[predicted_best].predicted;
  double worst_pick = 0;
  for (const RankedRun& r : g.runs) {
    if (!RankPredictedTie(r.predicted, predicted_min)) continue;
    g.predicted_best.push_back(r.id);
    worst_pick = std::max(worst_pick, r.measured);
  }
  g.top1_counted = g.pairs > 0;
  if (!g.top1_counted) return;
  // Every run tied for predicted fastest is judged: the pick is a hit only when none of them
  // measured more than the tolerance slower than the fastest.
  const double best = g.runs[measured_best].measured;
  g.top1_hit = worst_pick - best <= tolerance * best;
  g.regret_pct = (worst_pick / best - 1.0) * 100.0;
}

double MisorderedShare(const RankingGroup& g) {
  return g.pairs > 0 ? (static_cast<double>(g.discordant) + 0.5 * static_cast<double>(g.tied)) /
                           static_cast<double>(g.pairs)
                     : 0.0;
}

}  // namespace

double Concordance(int64_t concordant, int64_t tied, int64_t pairs) {
  return pairs > 0 ? (static_cast<double>(concordant) + 0.5 * static_cast<double>(tied)) /
                         static_cast<double>(pairs)
                   : 0.0;
}

JudgedPair JudgePair(const RankedRun& a, const RankedRun& b, double tolerance) {
  JudgedPair pair{&a, &b};
  if (b.measured < a.measured) std::swap(pair.faster, pair.slower);
  const RankedRun& fast = *pair.faster;
  const RankedRun& slow = *pair.slower;
  if (slow.measured - fast.measured <= tolerance * fast.measured) return pair;
  if (RankPredictedTie(fast.predicted, slow.predicted)) {
    pair.order = PairOrder::kTied;
  } else {
    pair.order = fast.predicted < slow.predicted ? PairOrder::kConcordant : PairOrder::kDiscordant;
  }
  return pair;
}

bool RankPredictedTie(double a, double b) {
  return std::fabs(a - b) <= kRankPredictedTie * std::max(std::fabs(a), std::fabs(b));
}

double RankingGroup::Agreement() const {
  return pairs > 0 ? 1.0 - MisorderedShare(*this) : 0.0;
}

std::string RankingJobKey(const RunOutcome& run) {
  return SourceGroup(run.source) + "\n" + run.model_name + "\n" + run.cluster + "\n" +
         run.gpu_name + "\n" + FormatShortest(run.gpu_memory_GiB) + "\n" +
         std::to_string(run.gpus) + "\n" + std::to_string(run.seq_len) + "\n" +
         std::to_string(run.global_batch_tokens);
}

RankingSummary SummarizeRanking(const std::vector<const RankingGroup*>& groups) {
  RankingSummary s;
  double regret = 0;
  for (const RankingGroup* g : groups) {
    ++s.groups;
    s.runs += static_cast<int64_t>(g->runs.size());
    s.pairs += g->pairs;
    s.concordant += g->concordant;
    s.discordant += g->discordant;
    s.tied += g->tied;
    if (!g->top1_counted) continue;
    ++s.top1_groups;
    if (g->top1_hit) ++s.top1_hits;
    regret += g->regret_pct;
  }
  s.agreement = Concordance(s.concordant, s.tied, s.pairs);
  if (s.top1_groups > 0) s.mean_regret_pct = regret / static_cast<double>(s.top1_groups);
  return s;
}

double SourceMeanAgreement(const std::vector<std::pair<std::string, RankingSummary>>& sources) {
  double sum = 0;
  int64_t n = 0;
  for (const auto& [source, summary] : sources) {
    if (summary.pairs == 0) continue;
    sum += summary.agreement;
    ++n;
  }
  return n > 0 ? sum / static_cast<double>(n) : 0.0;
}

RankingReport RankPlans(const std::vector<RunOutcome>& runs, double tolerance) {
  RankingReport report;
  report.tolerance = tolerance;
  std::vector<std::string> order;
  std::map<std::string, std::vector<const RunOutcome*>> jobs;
  for (const RunOutcome& run : runs) {
    if (run.status != RunStatus::kOk) continue;
    const std::string key = RankingJobKey(run);
    auto& members = jobs[key];
    if (members.empty()) order.push_back(key);
    members.push_back(&run);
  }
  for (const std::string& key : order) {
    const auto& members = jobs[key];
    if (members.size() < 2) continue;
    const std::string metric = JobMetric(members);
    if (metric.empty()) continue;
    RankingGroup g;
    g.source = SourceGroup(members.front()->source);
    g.job = JobText(*members.front());
    g.metric = metric;
    for (const RunOutcome* r : members) {
      if (!Has(r->measured, metric.c_str()) || !Has(r->predicted, metric.c_str())) continue;
      g.runs.push_back({r->id, TimeLike(metric, r->measured.at(metric)),
                        TimeLike(metric, r->predicted.at(metric)),
                        r->result ? PlanKnobs(r->result->plan, r->seq_len) : PlanKnobItems{}});
    }
    if (g.runs.size() < 2) continue;
    RankGroup(g, tolerance);
    report.groups.push_back(std::move(g));
  }
  std::vector<const RankingGroup*> all;
  std::vector<std::string> source_order;
  std::map<std::string, std::vector<const RankingGroup*>> by_source;
  for (const RankingGroup& g : report.groups) {
    all.push_back(&g);
    auto& members = by_source[g.source];
    if (members.empty()) source_order.push_back(g.source);
    members.push_back(&g);
  }
  report.pooled = SummarizeRanking(all);
  for (const std::string& source : source_order) {
    report.sources.emplace_back(source, SummarizeRanking(by_source[source]));
  }
  report.source_mean_agreement = SourceMeanAgreement(report.sources);
  return report;
}

std::vector<const RankingGroup*> MostMisordered(const RankingReport& report, size_t limit) {
  std::vector<const RankingGroup*> out;
  for (const RankingGroup& g : report.groups) {
    if (!g.misordered.empty() || (g.top1_counted && !g.top1_hit)) out.push_back(&g);
  }
  std::stable_sort(out.begin(), out.end(), [](const RankingGroup* a, const RankingGroup* b) {
    const double sa = MisorderedShare(*a);
    const double sb = MisorderedShare(*b);
    if (sa != sb) return sa > sb;
    return a->misordered.size() > b->misordered.size();
  });
  if (out.size() > limit) out.resize(limit);
  return out;
}

}  // namespace paraplan
