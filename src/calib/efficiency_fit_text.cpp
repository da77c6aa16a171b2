#include "calib/efficiency_fit_text.h"

#include <vector>

#include "core/format.h"
#include "core/strings.h"
#include "core/text_table.h"

namespace paraplan {

namespace {

using Row = std::vector<std::string>;

}  // namespace

std::string EfficiencyFitMarkdown(const EfficiencyFitResult& fit, const std::string& runs_file) {
  std::string out = "## Efficiency fit\n\nFitted on `" + runs_file + "`.";
  if (!fit.evaluation_only_ids.empty()) {
    out += " Not fitted (evaluation-only): " + Join(fit.evaluation_only_ids, " ") + ".";
  }
  out += "\n\n";
  std::vector<Row> rows = {{"family", "runs fitted", "held out", "fitted: MAPE before → after",
                            "held out: MAPE before → after", "outer / LM iterations"}};
  for (const auto& f : fit.families) {
    auto mape = [](const MetricSummary& s) {
      return s.n == 0 ? std::string("-") : FormatFixed(s.mape_pct, 1) + "%";
    };
    rows.push_back({f.family, Join(f.fitted_ids, " "), Join(f.held_out_ids, " "),
                    mape(f.fitted_before) + " → " + mape(f.fitted_after),
                    mape(f.held_out_before) + " → " + mape(f.held_out_after),
                    std::to_string(f.outer_iterations) + " / " + std::to_string(f.lm_iterations)});
  }
  out += MarkdownTable(rows) + "\n";
  for (const auto& f : fit.families) {
    std::vector<Row> params = {{"parameter", "prior", "fitted", "bounds"}};
    for (const auto& p : f.parameters) {
      params.push_back({p.name, FormatFixed(GetEfficiencyValue(f.prior, p.name), 3),
                        FormatFixed(GetEfficiencyValue(f.fitted, p.name), 3),
                        FormatFixed(p.lower, 2) + " – " + FormatFixed(p.upper, 2)});
    }
    out += "### " + f.family + "\n\n" + MarkdownTable(params) + "\n";
  }
  for (const auto& [derived, from] : fit.derived_from) {
    out += "- ";
    out += derived;
    out += ": no public runs; takes the ";
    out += from;
    out += " fit.\n";
  }
  return out;
}

}  // namespace paraplan
