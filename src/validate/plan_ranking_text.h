// The terminal and Markdown text of `validate`'s ranking figure (validate/plan_ranking.h).
#pragma once

#include <cstddef>
#include <string>

#include "validate/plan_ranking.h"

namespace paraplan {

// "ranking: 120 jobs, 900 pairs > 3% apart, agreement 81.2% (reversed 150, tied 40); top-1
// 70/110 jobs, mean regret 4.1%", one line; "" when no job has two ranked runs.
std::string RankingLine(const RankingReport& report);

// The paragraph that defines the figure (job, pairs, agreement, top-1, regret) at `tolerance`.
std::string RankingDefinition(double tolerance);

// A Markdown section: `heading` (a "## ..." line), `intro` (Markdown, e.g. RankingDefinition),
// the pooled figure, the table per source, the knob changes of two or more pairs, and the `worst`
// most mis-ordered jobs with their reversed pairs; "" without jobs.
std::string RankingMarkdown(const RankingReport& report, const std::string& heading,
                            const std::string& intro, size_t worst);

// The terminal version: RankingLine, the per-source table, and the `worst` most mis-ordered jobs.
std::string RankingTable(const RankingReport& report, size_t worst);

}  // namespace paraplan
