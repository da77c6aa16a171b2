#include "calib/cross_validation_report.h"

#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/format.h"
#include "core/strings.h"
#include "core/text_table.h"
#include "validate/plan_ranking_json.h"
#include "validate/plan_ranking_text.h"
#include "validate/validation_json.h"

namespace paraplan {

namespace {

using Row = std::vector<std::string>;

constexpr const char* kStep = "step_time_s";

// The words each grouping's tables use; `source`'s are the ones its output always had.
struct Labels {
  const char* group_key;
  const char* title;       // terminal heading
  const char* column;      // the group column
  const char* others;      // "N runs of other ..."
  const char* pooled;      // the pooled row
  const char* mean;        // the mean row
  const char* singular;    // "1 source"
  const char* plural;      // "5 sources"
  const char* pred_head;   // per-run predicted column
  const char* err_head;    // per-run error column
  const char* from_prior;  // the prior column
};

Labels LabelsFor(CvGrouping by) {
  switch (by) {
    case CvGrouping::kGpu:
      return {"GPU family (GpuFamily: Ampere, Hopper, Blackwell)",
              "Leave-one-GPU-family-out (each family predicted as a GPU nobody fitted: "
              "efficiencies transferred from a fit on the other families)",
              "left-out GPU family",
              " runs of other families",
              "all families, pooled",
              "mean over families",
              " family",
              " families",
              "LOFO pred (s)",
              "LOFO err",
              "models transferred"};
    case CvGrouping::kFramework:
      return {"framework (`framework:`, else inferred from the source)",
              "Leave-one-framework-out (each framework predicted by a fit on the others)",
              "left-out framework",
              " runs of other frameworks",
              "all frameworks, pooled",
              "mean over frameworks",
              " framework",
              " frameworks",
              "LOFwO pred (s)",
              "LOFwO err",
              "families from the prior"};
    case CvGrouping::kScale:
      return {"GPU count above 1024",
              "Scale extrapolation (runs above 1,024 GPUs predicted by a fit on those at or "
              "below)",
              "predicted group",
              " runs at <= 1024 GPUs",
              "all groups, pooled",
              "mean over groups",
              " group",
              " groups",
              "extrapolated pred (s)",
              "extrapolated err",
              "families from the prior"};
    case CvGrouping::kSource:
      break;
  }
  return {"source up to its first comma or '(' (SourceGroup)",
          "Leave-one-source-out (each source predicted by a fit on the others)",
          "left-out source",
          " runs of other sources",
          "all sources, pooled",
          "mean over sources",
          " source",
          " sources",
          "LOSO pred (s)",
          "LOSO err",
          "families from the prior"};
}

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

// The items as a list, "-" for none.
std::string ListOrDash(const std::vector<std::string>& items) {
  const std::string out = Join(items);
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

Json ModelsJson(const SourceFold& fold) {
  Json out = Json::MakeArray();
  for (const auto& model : fold.models) {
    Json item = Json::MakeObject();
    item.Set("model", model.model);
    auto it = fold.transferred_from.find(model.model);
    if (it != fold.transferred_from.end()) item.Set("transferred_from", it->second);
    item.Set("step_time_s", MetricJson(model.step_time));
    out.Push(std::move(item));
  }
  return out;
}

Json FoldJson(const SourceFold& fold, CvGrouping by) {
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
  out.Set("ranking", RankingSummaryJson(fold.report.ranking.pooled));
  out.Set("efficiency", FoldEfficiencyJson(fold));
  if (by == CvGrouping::kGpu || !fold.transferred_from.empty()) {
    out.Set("models", ModelsJson(fold));
  }
  out.Set("runs", std::move(runs));
  return out;
}

std::string MapeOrDash(const MetricSummary& s) {
  return s.n > 0 ? Pct(s.mape_pct) : "-";
}

std::string MaxOrDash(const MetricSummary& s) {
  return s.n > 0 ? Pct(s.max_abs_pct) : "-";
}

// `gpu`: each left-out model with the model it took its numbers from ("B200 from H100").
std::string TransferredModels(const SourceFold& fold) {
  std::vector<std::string> items;
  items.reserve(fold.transferred_from.size());
  for (const auto& [model, from] : fold.transferred_from) {
    std::string item = model;
    item += " from ";
    item += from;
    items.push_back(std::move(item));
  }
  return ListOrDash(items);
}

std::vector<Row> SourceRows(const CrossValidationResult& cv) {
  const Labels l = LabelsFor(cv.by);
  std::vector<Row> rows = {
      {l.column, "runs", "compared", "fitted on", l.from_prior, "step-time MAPE", "max abs error"}};
  for (const auto& fold : cv.folds) {
    rows.push_back(
        {fold.source, std::to_string(fold.report.runs.size()), std::to_string(fold.step_time.n),
         std::to_string(fold.fitted_ids.size()) + l.others,
         cv.by == CvGrouping::kGpu ? TransferredModels(fold) : ListOrDash(fold.prior_families),
         MapeOrDash(fold.step_time), MaxOrDash(fold.step_time)});
    for (const auto& model : fold.models) {
      rows.push_back({"  " + model.model, "", std::to_string(model.step_time.n), "", "",
                      MapeOrDash(model.step_time), MaxOrDash(model.step_time)});
    }
  }
  size_t runs = 0;
  for (const auto& fold : cv.folds) runs += fold.report.runs.size();
  rows.push_back({l.pooled, std::to_string(runs), std::to_string(cv.overall.n), "", "",
                  Pct(cv.overall.mape_pct), Pct(cv.overall.max_abs_pct)});
  const size_t n = cv.folds.size();
  rows.push_back({l.mean, std::to_string(n) + (n == 1 ? l.singular : l.plural), "", "", "",
                  Pct(cv.source_mean_mape_pct), ""});
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
  const Labels l = LabelsFor(cv.by);
  return RunRows(folds, in_sample, l.column, l.pred_head, l.err_head, "in-sample err");
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
  if (!evaluation.transferred_from.empty()) {
    out += "; GPUs nobody fitted, transferred: " + TransferredModels(evaluation);
  }
  return out;
}

std::string EvaluationMarkdown(const CrossValidationResult& cv,
                               const std::vector<ValidationReport>& in_sample) {
  if (!cv.evaluation) return "";
  const SourceFold& evaluation = *cv.evaluation;
  std::string out = "## Independent evaluation (never fitted)\n\n";
  out +=
      "These runs are marked `evaluation_only`: their source is reserved for independent "
      "evaluation (`docs/validation/reserved_runs.yaml` says why), or their GPU is kept unfitted "
      "on purpose (B300, GB300: docs/formats.md, `evaluation_only`). They are in no fold above and "
      "in no fit: they are predicted by one fit, from the priors, on every other run of all "
      "sources, and a family with no such run takes what a GPU nobody fitted gets (the transfer "
      "from the fit's reference, docs/cost-model.md \"A GPU nobody fitted\"). *shipped-efficiency "
      "err* is the same run with the shipped `hardware/efficiency.yaml`.\n\n";
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
        header.push_back(cv.by == CvGrouping::kScale ? "fitted <= 1024 GPUs"
                                                     : "without " + fold.source);
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
  for (const auto& fold : cv.folds) folds.Push(FoldJson(fold, cv.by));
  Json overall = Json::MakeObject();
  overall.Set(kStep, MetricJson(cv.overall));
  Json out = Json::MakeObject();
  out.Set("by", ToString(cv.by));
  out.Set("group_key", LabelsFor(cv.by).group_key);
  out.Set("folds", std::move(folds));
  out.Set("overall", std::move(overall));
  out.Set("source_mean_mape_pct", cv.source_mean_mape_pct);
  out.Set("ranking", RankingReportJson(cv.ranking));
  if (cv.evaluation) out.Set("evaluation", FoldJson(*cv.evaluation, CvGrouping::kSource));
  return out;
}

std::string CrossValidationTable(const CrossValidationResult& cv,
                                 const std::vector<ValidationReport>& in_sample) {
  std::string out = "\n" + std::string(LabelsFor(cv.by).title) + ":\n" +
                    TerminalRows(LosoRows(cv, in_sample)) + "\n" + TerminalRows(SourceRows(cv));
  if (cv.ranking.pooled.groups > 0) {
    out += "\nRanking, held-out predictions:" + RankingTable(cv.ranking, 5);
  }
  if (cv.evaluation) {
    out +=
        "\nIndependent evaluation (evaluation-only runs, never fitted; predicted by a fit on "
        "all other runs): " +
        EvaluationSummary(*cv.evaluation) + "\n" +
        TerminalRows(EvaluationRows(*cv.evaluation, in_sample));
  }
  return out;
}

namespace {

// The heading and the paragraph before each grouping's tables (`source`'s as it always was).
std::string MarkdownIntro(CvGrouping by) {
  switch (by) {
    case CvGrouping::kGpu:
      return "## Leave-one-GPU-family-out: a GPU nobody fitted\n\n"
             "Each GPU family (a chip generation, `src/hardware/gpu_family.h`) is left out in "
             "turn: the efficiencies are refitted on the other families' runs, and every model "
             "of the left-out family gets exactly what a GPU without fitted runs gets: the fitted "
             "numbers of the fold's best-covered model, transferred to the left-out GPU: its own "
             "measured kernel and link ceilings times the fit's framework shortfall (fitted / "
             "measured), or per SM and clock where its family has no measurement "
             "(`src/hardware/efficiency_transfer.h`; "
             "docs/cost-model.md, \"A GPU nobody fitted\"). Indented rows are the models inside "
             "the family. These residuals are the band `plan --tokens` gives such a GPU.\n\n";
    case CvGrouping::kFramework:
      return "## Leave-one-framework-out\n\n"
             "Each framework (`framework:` as the run states it, else as inferred from the "
             "source; `unstated` where neither says) is left out in turn: the efficiencies are "
             "refitted on the other frameworks' runs and the left-out runs predicted with them. "
             "A GPU family only the left-out framework has takes its prior.\n\n";
    case CvGrouping::kScale:
      return "## Scale extrapolation\n\n"
             "The efficiencies are fitted on the runs at 1,024 GPUs or fewer, and the runs above "
             "1,024 GPUs are predicted with them (one group): how the model extrapolates in "
             "scale.\n\n";
    case CvGrouping::kSource:
      break;
  }
  return "## Leave-one-source-out: the figure to read\n\n"
         "Each source (the citation up to its first comma or parenthesis) is left out in turn: the "
         "default efficiencies are refitted from their priors, by the same fit as "
         "`--fit-efficiency` with nothing else held out, on every other source's runs, and the "
         "left-out runs are predicted with that fold's numbers. A GPU family that only the "
         "left-out source has takes its prior (the sourced starting points), never a fit that saw "
         "those runs. No number below was fitted to the runs it predicts; the notes further down "
         "say what each fold teaches.\n\n";
}

}  // namespace

std::string CrossValidationMarkdown(const CrossValidationResult& cv,
                                    const std::vector<ValidationReport>& in_sample) {
  std::string out = MarkdownIntro(cv.by);
  out += MarkdownTable(SourceRows(cv)) + "\n";
  out +=
      "Per run (*in-sample err*: the same run with the shipped `hardware/efficiency.yaml`, "
      "whose fit saw it):\n\n";
  out += MarkdownTable(LosoRows(cv, in_sample)) + "\n";
  out += cv.by == CvGrouping::kSource
             ? "Fitted parameters per fold (how much each number depends on which source is in "
               "the fit):\n\n"
             : "Fitted parameters per fold:\n\n";
  out += FoldParameterTables(cv);
  out += RankingMarkdown(
      cv.ranking,
      std::string("### Ranking of alternative plans, held out (`--cv ") + ToString(cv.by) + "`)",
      "The ranking figure (defined in the in-sample section) over every fold's held-out "
      "predictions: each run as predicted by the fold that left it out.\n\n",
      10);
  out += EvaluationMarkdown(cv, in_sample);
  return out;
}

std::vector<std::vector<std::string>> CrossValidationSummaryRows(
    const std::vector<const CrossValidationResult*>& cvs) {
  std::vector<Row> rows = {{"cross-validation", "groups", "runs predicted", "pooled step-time MAPE",
                            "worst group", "its MAPE"}};
  for (const CrossValidationResult* cv : cvs) {
    const SourceFold* worst = cv->Worst();
    rows.push_back({std::string("--cv ") + ToString(cv->by), std::to_string(cv->folds.size()),
                    std::to_string(cv->overall.n), Pct(cv->overall.mape_pct),
                    worst ? worst->source : "-", worst ? Pct(worst->step_time.mape_pct) : "-"});
  }
  return rows;
}

std::string CrossValidationSummaryTable(const std::vector<const CrossValidationResult*>& cvs) {
  return TerminalRows(CrossValidationSummaryRows(cvs));
}

std::string CrossValidationSummaryMarkdown(const std::vector<const CrossValidationResult*>& cvs) {
  return "## Cross-validation: the four figures\n\n"
         "Each figure predicts runs with efficiencies fitted without them: leaving one source, "
         "one GPU family, one framework out, or fitting at <= 1,024 GPUs and predicting above. "
         "The sections below give every group and run.\n\n" +
         MarkdownTable(CrossValidationSummaryRows(cvs)) + "\n";
}

}  // namespace paraplan
