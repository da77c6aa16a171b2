// The JSON of `validate`'s ranking figure (validate/plan_ranking.h; docs/cli.md, "validate"):
// the "ranking" object beside "summary", and inside `--cv`'s object and each of its folds.
#pragma once

#include "core/json.h"
#include "validate/plan_ranking.h"

namespace paraplan {

// {"groups", "runs", "pairs", "concordant", "discordant", "tied", "agreement", "top1_groups",
// "top1_hits", "mean_regret_pct"}
Json RankingSummaryJson(const RankingSummary& summary);

// {"tolerance", "pooled": summary, "source_mean_agreement", "sources": [{"source", ...summary}],
// "groups": [{"source", "job", "metric", "ids", "pairs", "concordant", "discordant", "tied",
// "agreement", "measured_best", "predicted_best": [ids tied for fastest], "top1", "regret_pct",
// "misordered": [{"faster", "slower", "tied"}]}], "by_knob": [{"knob", "from", "to", "pairs",
// "ordered", "concordant", "tied", "agreement", "ratio_error_pct", "sources"}]
// (validate/ranking_by_knob.h)}; "top1" is null for a job without an ordered
// pair.
Json RankingReportJson(const RankingReport& report);

}  // namespace paraplan
