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

// The first report's error of each id (a run id may repeat across files; the first wins).
std::map<std::string, std::string> InSampleErrors(const std::vector<ValidationReport>& in_sample) {
  std::map<std::string, std::string> out;
  for (const auto& report : in_sample) {
    for (const auto& run : report.runs) out.emplace(run.id, SignedPct(run.error_pct));
  }
  return out;
}

std::vector<Row> RunRows(const std::vector<const SourceFold*>& folds,
                         const std::vector<ValidationReport>& in_sample, const char* source_head,
                         const char* pred_head, const char* err_head, const char* in_head) {
  const auto in_errors = InSampleErrors(in_sample);
  Row header = {"id", source_head, "model", "GPUs", "step meas (s)", pred_head, err_head};
  if (!in_sample.empty()) header.push_back(in_head);
  std::vector<Row> rows = {header};
  for (const SourceFold* fold_ptr : folds) {
    const SourceFold& fold = *fold_ptr;
    for (const auto& run : fold.report.runs) {
      Row row = {run.id,
                 fold.source,
                 run.model_name,
                 std::to_string(run.gpus),
                 Seconds(run.measured),
                 Seconds(run.predicted),
                 run.status == RunStatus::kOk ? SignedPct(run.error_pct) : "error"};
      if (!in_sample.empty()) {
        auto it = in_errors.find(run.id);
        row.push_back(it == in_errors.end() ? "-" : it->second);
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

std::vector<Row> LosoRows(const CrossValidationResult& cv,
                          const std::vector<ValidationReport>& in_sample) {
  std::vector<const SourceFold*> folds;
  for (const auto& fold : cv.folds) folds.push_back(&fold);
  return RunRows(folds, in_sample, "left-out source", "LOSO pred (s)", "LOSO err", "in-sample err");
}

std::vector<Row> EvaluationRows(const SourceFold& evaluation,
                                const std::vector<ValidationReport>& in_sample) {
  return RunRows({&evaluation}, in_sample, "set", "pred (s)", "err", "shipped-efficiency err");
}

std::string EvaluationSummary(const SourceFold& evaluation) {
  const MetricSummary& s = evaluation.step_time;
  std::string out =
      std::to_string(evaluation.report.runs.size()) + " runs, " + std::to_string(s.n) + " compared";
  if (s.n > 0) out += ": step-time MAPE " + Pct(s.mape_pct) + " (max " + Pct(s.max_abs_pct) + ")";
  out += "; fitted on " + std::to_string(evaluation.fitted_ids.size()) + " other runs";
  if (!evaluation.prior_families.empty()) {
    out += "; families from the prior: " + Join(evaluation.prior_families);
  }
  return out;
}

std::string EvaluationMarkdown(const CrossValidationResult& cv,
                               const std::vector<ValidationReport>& in_sample) {
  if (!cv.evaluation) return "";
  const SourceFold& evaluation = *cv.evaluation;
  std::string out = "## Independent evaluation (never fitted)\n\n";
  out +=
      "These runs are marked `evaluation_only` (their source is reserved for independent "
      "evaluation: `docs/validation/reserved_runs.yaml` says why). They are in no fold above and "
      "in no fit: they are predicted by one fit, from the priors, on every other run of all "
      "sources, and a family with no such run takes its prior. *shipped-efficiency err* is the "
      "same run with the shipped `hardware/efficiency.yaml`.\n\n";
  out += EvaluationSummary(evaluation) + ".\n\n";
  out += MarkdownTable(EvaluationRows(evaluation, in_sample)) + "\n";
  return out;
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
  if (cv.evaluation) out.Set("evaluation", FoldJson(*cv.evaluation));
  return out;
}

std::string CrossValidationTable(const CrossValidationResult& cv,
                                 const std::vector<ValidationReport>& in_sample) {
  std::string out = "\nLeave-one-source-out (each source predicted by a fit on the others):\n" +
                    TerminalRows(LosoRows(cv, in_sample)) + "\n" + TerminalRows(SourceRows(cv));
  if (cv.evaluation) {
    out +=
        "\nIndependent evaluation (evaluation-only runs, never fitted; predicted by a fit on "
        "all other runs): " +
        EvaluationSummary(*cv.evaluation) + "\n" +
        TerminalRows(EvaluationRows(*cv.evaluation, in_sample));
  }
  return out;
}

std::string CrossValidationMarkdown(const CrossValidationResult& cv,
                                    const std::vector<ValidationReport>& in_sample) {
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
  out += MarkdownTable(LosoRows(cv, in_sample)) + "\n";
  out +=
      "Fitted parameters per fold (how much each number depends on which source is in the "
      "fit):\n\n";
  out += FoldParameterTables(cv);
  out += EvaluationMarkdown(cv, in_sample);
  return out;
}

}  // namespace paraplan
