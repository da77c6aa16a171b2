#include "calib/cross_validation_report.h"

#include <map>
#include <set>
#include <vector>

#include "core/format.h"
#include "core/text_table.h"
#include "validate/validation_json.h"

namespace paraplan {

namespace {

using Row = std::vector<std::string>;

constexpr const char* kGroupKey = "source up to its first comma or '(' (SourceGroup)";
constexpr const char* kStep = "step_time_s";

std::string Pct(double value) {
  return FormatFixed(value, 1) + "%";
}

std::string SignedPct(const std::map<std::string, double>& errors) {
  auto it = errors.find(kStep);
  if (it == errors.end()) return "-";
  return (it->second >= 0 ? "+" : "") + FormatFixed(it->second, 1) + "%";
}

std::string Seconds(const std::map<std::string, double>& values) {
  auto it = values.find(kStep);
  return it == values.end() ? "-" : FormatFixed(it->second, 2);
}

std::string Join(const std::vector<std::string>& items) {
  std::string out;
  for (const auto& item : items) out += (out.empty() ? "" : ", ") + item;
  return out.empty() ? "-" : out;
}

Json Strings(const std::vector<std::string>& items) {
  Json out = Json::MakeArray();
  for (const auto& item : items) out.Push(item);
  return out;
}

Json MetricJson(const MetricSummary& s) {
  Json out = Json::MakeObject();
  out.Set("n", s.n).Set("mape_pct", s.mape_pct).Set("max_abs_pct", s.max_abs_pct);
  return out;
}

Json FoldEfficiencyJson(const SourceFold& fold) {
  Json out = Json::MakeObject();
  for (const auto& family : fold.families) {
    Json values = Json::MakeObject();
    for (const auto& p : family.parameters) {
      values.Set(p.name, GetEfficiencyValue(family.fitted, p.name));
    }
    out.Set(family.family, std::move(values));
  }
  return out;
}

Json FoldJson(const SourceFold& fold) {
  std::vector<std::string> ids;
  Json runs = Json::MakeArray();
  for (const auto& run : fold.report.runs) {
    ids.push_back(run.id);
    runs.Push(RunOutcomeJson(run));
  }
  Json out = Json::MakeObject();
  out.Set("source", fold.source);
  out.Set("ids", Strings(ids));
  out.Set("fitted_ids", Strings(fold.fitted_ids));
  out.Set("prior_families", Strings(fold.prior_families));
  out.Set("summary", SummarySetJson(fold.report.all));
  out.Set("efficiency", FoldEfficiencyJson(fold));
  out.Set("runs", std::move(runs));
  return out;
}

std::vector<Row> SourceRows(const CrossValidationResult& cv) {
  std::vector<Row> rows = {{"left-out source", "runs", "compared", "fitted on",
                            "families from the prior", "step-time MAPE", "max abs error"}};
  for (const auto& fold : cv.folds) {
    rows.push_back(
        {fold.source, std::to_string(fold.report.runs.size()), std::to_string(fold.step_time.n),
         std::to_string(fold.fitted_ids.size()) + " runs of other sources",
         Join(fold.prior_families), fold.step_time.n > 0 ? Pct(fold.step_time.mape_pct) : "-",
         fold.step_time.n > 0 ? Pct(fold.step_time.max_abs_pct) : "-"});
  }
  size_t runs = 0;
  for (const auto& fold : cv.folds) runs += fold.report.runs.size();
  rows.push_back({"all sources, pooled", std::to_string(runs), std::to_string(cv.overall.n), "", "",
                  Pct(cv.overall.mape_pct), Pct(cv.overall.max_abs_pct)});
  const size_t n = cv.folds.size();
  rows.push_back({"mean over sources", std::to_string(n) + (n == 1 ? " source" : " sources"), "",
                  "", "", Pct(cv.source_mean_mape_pct), ""});
  return rows;
}

std::map<std::string, std::string> InSampleErrors(const ValidationReport* in_sample) {
  std::map<std::string, std::string> out;
  if (!in_sample) return out;
  for (const auto& run : in_sample->runs) out[run.id] = SignedPct(run.error_pct);
  return out;
}

std::vector<Row> RunRows(const CrossValidationResult& cv, const ValidationReport* in_sample) {
  const auto in_errors = InSampleErrors(in_sample);
  Row header = {"id",      "left-out source", "model", "GPUs", "step meas (s)", "LOSO pred (s)",
                "LOSO err"};
  if (in_sample) header.push_back("in-sample err");
  std::vector<Row> rows = {header};
  for (const auto& fold : cv.folds) {
    for (const auto& run : fold.report.runs) {
      Row row = {run.id,
                 fold.source,
                 run.model_name,
                 std::to_string(run.gpus),
                 Seconds(run.measured),
                 Seconds(run.predicted),
                 run.status == RunStatus::kOk ? SignedPct(run.error_pct) : "error"};
      if (in_sample) {
        auto it = in_errors.find(run.id);
        row.push_back(it == in_errors.end() ? "-" : it->second);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// One table per family: its prior and each fold's fitted value of every parameter.
std::string FoldParameterTables(const CrossValidationResult& cv) {
  std::set<std::string> families;
  for (const auto& fold : cv.folds) {
    for (const auto& family : fold.families) families.insert(family.family);
  }
  std::string out;
  for (const auto& name : families) {
    Row header = {"parameter", "prior"};
    std::vector<const FamilyFit*> fits;
    for (const auto& fold : cv.folds) {
      for (const auto& family : fold.families) {
        if (family.family != name) continue;
        header.push_back("without " + fold.source);
        fits.push_back(&family);
      }
    }
    std::vector<Row> rows = {header};
    for (const auto& p : fits.front()->parameters) {
      Row row = {p.name, FormatFixed(GetEfficiencyValue(fits.front()->prior, p.name), 3)};
      for (const FamilyFit* fit : fits) {
        row.push_back(FormatFixed(GetEfficiencyValue(fit->fitted, p.name), 3));
      }
      rows.push_back(std::move(row));
    }
    out += "### " + name + "\n\n" + MarkdownTable(rows) + "\n";
  }
  return out;
}

std::string TerminalRows(const std::vector<Row>& rows) {
  TextTable table(rows.front(), {});
  for (size_t r = 1; r < rows.size(); ++r) table.AddRow(rows[r]);
  return table.Render();
}

}  // namespace

Json CrossValidationJson(const CrossValidationResult& cv) {
  Json folds = Json::MakeArray();
  for (const auto& fold : cv.folds) folds.Push(FoldJson(fold));
  Json overall = Json::MakeObject();
  overall.Set(kStep, MetricJson(cv.overall));
  Json out = Json::MakeObject();
  out.Set("by", "source");
  out.Set("group_key", kGroupKey);
  out.Set("folds", std::move(folds));
  out.Set("overall", std::move(overall));
  out.Set("source_mean_mape_pct", cv.source_mean_mape_pct);
  return out;
}

std::string CrossValidationTable(const CrossValidationResult& cv,
                                 const ValidationReport* in_sample) {
  return "\nLeave-one-source-out (each source predicted by a fit on the others):\n" +
         TerminalRows(RunRows(cv, in_sample)) + "\n" + TerminalRows(SourceRows(cv));
}

std::string CrossValidationMarkdown(const CrossValidationResult& cv,
                                    const ValidationReport* in_sample) {
  std::string out = "## Leave-one-source-out: the figure to read\n\n";
  out +=
      "Each source (the citation up to its first comma or parenthesis) is left out in turn: the "
      "default efficiencies are refitted from their priors, by the same fit as "
      "`--fit-efficiency` with nothing else held out, on every other source's runs, and the "
      "left-out runs are predicted with that fold's numbers. A GPU family that only the "
      "left-out source has takes its prior (the sourced starting points), never a fit that saw "
      "those runs. No number below was fitted to the runs it predicts; the notes further down "
      "say what each fold teaches.\n\n";
  out += MarkdownTable(SourceRows(cv)) + "\n";
  out +=
      "Per run (*in-sample err*: the same run with the shipped `hardware/efficiency.yaml`, "
      "whose fit saw it):\n\n";
  out += MarkdownTable(RunRows(cv, in_sample)) + "\n";
  out +=
      "Fitted parameters per fold (how much each number depends on which source is in the "
      "fit):\n\n";
  out += FoldParameterTables(cv);
  return out;
}

}  // namespace paraplan
