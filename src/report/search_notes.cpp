#include "report/search_notes.h"

#include <cmath>

#include "core/format.h"
#include "core/text_table.h"
#include "report/megatron_recipe_flags.h"

namespace paraplan {

namespace {

constexpr size_t kReasonsShown = 4;

}  // namespace

Json SkippedJson(const SearchResult& result) {
  Json reasons = Json::MakeArray();
  for (const SkipReason& r : result.skipped) {
    Json item = Json::MakeObject();
    item.Set("rule", r.rule).Set("count", r.count);
    reasons.Push(std::move(item));
  }
  Json j = Json::MakeObject();
  j.Set("total", result.skipped_total).Set("reasons", std::move(reasons));
  return j;
}

std::string SkippedText(const SearchResult& result) {
  if (result.skipped_total == 0) return "";
  std::string text = "skipped " + GroupThousands(result.skipped_total) +
                     " candidates that break a rule (counted, never an abort):";
  for (size_t i = 0; i < result.skipped.size() && i < kReasonsShown; ++i) {
    text += "\n  " + GroupThousands(result.skipped[i].count) + " x " + result.skipped[i].rule;
  }
  if (result.skipped.size() > kReasonsShown) {
    text += "\n  ... and " + std::to_string(result.skipped.size() - kReasonsShown) +
            " more rules (all in --format json, \"skipped\")";
  }
  return text + "\n";
}

std::string FoldedText(const SearchResult& result) {
  if (result.folded == 0) return "";
  return "; " + GroupThousands(result.folded) + " equivalent plan" +
         (result.folded == 1 ? "" : "s") +
         " folded (same step time to 1 ms and peak memory to 0.1 GiB as a better-ranked plan)";
}

std::string ParetoShownText(const SearchResult& result) {
  const auto shown = static_cast<int64_t>(result.pareto.size());
  const int64_t useful = result.pareto_total - result.pareto_cut;
  std::string text;
  if (shown < useful) {
    text = "; " + std::to_string(shown) + " of " + std::to_string(useful) +
           " points, spread along the front (--pareto N)";
  }
  return text + ParetoCutText(result, "; ");
}

std::string ParetoCutText(const SearchResult& result, const std::string& lead) {
  if (result.pareto_cut == 0) return "";
  const bool one = result.pareto_cut == 1;
  std::string times;  // the slowdown, to 3 digits: 1.5 x an odd step time is not exactly 1.5
  if (!result.pareto.empty() && result.pareto.front().step_time_s > 0) {
    const double slowdown = result.pareto_cut_step_s / result.pareto.front().step_time_s;
    times = " (" + FormatShortest(std::round(slowdown * 1000) / 1000) + "x the fastest)";
  }
  return lead + GroupThousands(result.pareto_cut) + (one ? " point" : " points") + " past " +
         FormatFixed(result.pareto_cut_step_s, 3) + " s per step" + times +
         " not shown (--pareto-max-slowdown)";
}

std::string FrontEstimatedText(const SearchResult& result) {
  if (result.front_estimated == 0) return "";
  const bool one = result.front_estimated == 1;
  return "; " + std::to_string(result.front_estimated) + (one ? " point" : " points") +
         " marked ~ " +
         (one ? "is an analytical estimate, its schedule"
              : "are analytical estimates, their schedules") +
         " over the simulator's budget (docs/search.md)";
}

std::string MemoryReliefText(const SearchResult& result) {
  if (result.memory_relief.empty() || result.plans.empty()) return "";
  return "memory is tight: no plan fits with the default memory recipe; every plan below uses " +
         result.memory_relief +
         " (Megatron-LM: " + MegatronRecipeFlagsText(result.plans.front().plan) + ")\n";
}

std::string TableLegend() {
  return "Columns: tp/pp/dp/cp tensor, pipeline, data and context parallel sizes; ep expert "
         "parallel size\n"
         "  (16/2 = ep 16 with expert tensor parallel etp 2); mb micro-batch (sequences); zero "
         "ZeRO stage\n"
         "  (1 = distributed optimizer); sp sequence parallelism; schedule the pipeline schedule\n"
         "  (interleaved x10 = 10 virtual stages per GPU, vpp); overlap communication hidden "
         "behind compute\n"
         "  besides the default DP and PP overlap (tp = TP comm overlap, ep = EP all-to-all "
         "overlap, - = none);\n"
         "  step simulated step time; throughput tokens/s per GPU; MFU model FLOPs "
         "utilisation; memory peak\n"
         "  per GPU; cost GPU-hours per billion tokens.\n";
}

}  // namespace paraplan
