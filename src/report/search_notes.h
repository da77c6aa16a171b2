// The notes every plan report carries besides the plans: what the search skipped (candidates
// breaking a rule, by rule) and the legend of the table's columns.
#pragma once

#include <string>

#include "core/json.h"
#include "search/search.h"

namespace paraplan {

// {"total": N, "reasons": [{"rule": "...", "count": n}, ...]} (most frequent first).
Json SkippedJson(const SearchResult& result);

// "skipped 1,234 candidates that break a rule: 1,000 x ...; 234 x ...\n" (empty when none).
std::string SkippedText(const SearchResult& result);

// ", 12 equivalent plans folded (same step time to 1 ms and memory to 0.1 GiB as a plan shown)"
// or "".
std::string FoldedText(const SearchResult& result);

// "; 10 of 47 points, spread along the front (--pareto N)" or "" when all are shown.
std::string ParetoShownText(const SearchResult& result);

// "; 52 points past 2.832 s per step (2x the fastest) not shown (--pareto-max-slowdown)" after
// `lead`, or "" when the front was not cut (search.h, pareto_cut).
std::string ParetoCutText(const SearchResult& result, const std::string& lead);
// "memory is tight: ... every plan below uses optimizer_offload=1 (...)\n" when the search needed
// a memory recipe (SearchResult::memory_relief), or "".
std::string MemoryReliefText(const SearchResult& result);
// "; N points marked ~ are analytical estimates ..." (SearchResult::front_estimated), or "".
std::string FrontEstimatedText(const SearchResult& result);

// The one-paragraph legend under the plan table: what `ep 16/2`, `interleaved x10`, `overlap`,
// `sp`, `mb`, ... mean.
std::string TableLegend();

}  // namespace paraplan
