// `paraplan validate RUNS.yaml... [--format table|json|markdown] [--threads N]
// [--holdout-every K] [--fit-efficiency OUT.yaml] [--cv source|gpu|framework|scale[,...]]
// [--notes FILE] [-o FILE]`: predicted against measured for published runs; optionally fits the
// default efficiencies first, and optionally cross-validates the fit leaving one group out at a
// time (one source, GPU family or framework) or extrapolating in scale.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "calib/cross_validation.h"
#include "calib/cross_validation_report.h"
#include "calib/efficiency_fit.h"
#include "calib/efficiency_fit_text.h"
#include "calib/efficiency_yaml.h"
#include "cli/cli_checks.h"
#include "cli/command.h"
#include "cli/progress_bar.h"
#include "config/resolve.h"
#include "config/runs_file.h"
#include "core/error.h"
#include "core/output_file.h"
#include "validate/validation_json.h"
#include "validate/validation_report.h"
#include "validate/validation_text.h"

namespace paraplan {

namespace {

namespace fs = std::filesystem;

struct ValidateOptions {
  std::vector<std::string> files;
  std::string format = "table";
  int threads = 0;
  int64_t holdout_every = 4;
  int64_t simulate_top = 4;
  std::string fit_out;
  std::string cv;  // "" or a comma-separated list of source, gpu, framework, scale
  std::string notes;
  std::string output;
};

std::string ReadText(const std::string& path, const char* flag) {
  std::ifstream in(path);
  if (!in) throw InputError({}, flag, "cannot read '" + path + "'");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void WriteText(const std::string& path, const std::string& text, const char* flag) {
  WriteOutputFile(path, text, flag);
}

// The text the fitted numbers go into: OUT itself when it exists, else the shipped
// hardware/efficiency.yaml, else nothing (a fresh file is written).
std::string EfficiencyTemplate(const std::string& out_path) {
  if (fs::exists(out_path)) return ReadText(out_path, "--fit-efficiency");
  for (const auto& dir : DataSearchDirs()) {
    const fs::path shipped = fs::path(dir) / "hardware" / "efficiency.yaml";
    if (fs::exists(shipped)) return ReadText(shipped.string(), "--fit-efficiency");
  }
  return "";
}

void WriteFittedEfficiencies(const EfficiencyFitResult& fit, const std::string& out_path,
                             std::ostream& err) {
  const std::string existing = EfficiencyTemplate(out_path);
  std::string text;
  if (existing.empty()) {
    text = NewEfficiencyYaml(fit.defaults,
                             "# Default efficiencies per GPU family, fitted by `paraplan validate "
                             "--fit-efficiency` (docs/validation.md).\n");
  } else {
    std::vector<std::string> missing;
    text = UpdateEfficiencyYaml(existing, fit.defaults, &missing);
    for (const auto& key : missing) {
      err << "paraplan: warning: " << out_path << " has no place for fitted " << key << "\n";
    }
  }
  WriteText(out_path, text, "--fit-efficiency");
}

std::string CommandText(const ValidateOptions& o) {
  std::string text = "paraplan validate";
  for (const auto& file : o.files) text += " " + file;
  if (!o.fit_out.empty()) text += " --fit-efficiency " + o.fit_out;
  if (!o.cv.empty()) text += " --cv " + o.cv;
  if (o.holdout_every != 4) text += " --holdout-every " + std::to_string(o.holdout_every);
  if (o.simulate_top != 4) text += " --simulate-top " + std::to_string(o.simulate_top);
  text += " --format " + o.format;
  if (!o.notes.empty()) text += " --notes " + o.notes;
  if (!o.output.empty()) text += " -o " + o.output;
  return text;
}

// The groupings of `--cv` in the order given ("" = none); throws for an unknown or repeated one.
std::vector<CvGrouping> CvGroupings(const std::string& text) {
  std::vector<CvGrouping> out;
  if (text.empty()) return out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    bool found = false;
    for (const CvGrouping by :
         {CvGrouping::kSource, CvGrouping::kGpu, CvGrouping::kFramework, CvGrouping::kScale}) {
      if (item != ToString(by)) continue;
      if (std::find(out.begin(), out.end(), by) != out.end()) {
        throw InputError({}, "--cv", "'" + item + "' is listed twice");
      }
      out.push_back(by);
      found = true;
    }
    if (!found) {
      throw InputError({}, "--cv",
                       "must be source, gpu, framework or scale (or a comma-separated list of "
                       "them); got '" +
                           item + "'");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void CheckOptions(const ValidateOptions& o) {
  if (o.format != "table" && o.format != "json" && o.format != "markdown") {
    throw InputError({}, "--format",
                     "must be one of table, json, markdown; got '" + o.format + "'");
  }
  if (o.format == "json" && o.files.size() != 1) {
    throw InputError({}, "--format", "json takes exactly one runs file");
  }
  CvGroupings(o.cv);
  if (o.holdout_every < 0) throw InputError({}, "--holdout-every", "must be >= 0");
  if (o.simulate_top < 1) throw InputError({}, "--simulate-top", "must be >= 1");
  if (o.threads < 0) throw InputError({}, "--threads", "must be >= 0");
}

std::string Render(const ValidateOptions& o, const std::vector<ValidationReport>& reports,
                   const EfficiencyFitResult* fit, const std::vector<CrossValidationResult>& cvs) {
  std::vector<const CrossValidationResult*> all;
  all.reserve(cvs.size());
  for (const auto& cv : cvs) all.push_back(&cv);
  if (o.format == "json") {
    Json out = ValidationReportJson(reports.front());
    if (!cvs.empty()) out.Set("cv", CrossValidationJson(cvs.front()));
    if (cvs.size() > 1) {
      Json each = Json::MakeArray();
      for (const auto& cv : cvs) each.Push(CrossValidationJson(cv));
      out.Set("cv_all", std::move(each));
    }
    return out.Dump(2);
  }
  if (o.format == "table") {
    std::string out;
    for (const auto& report : reports) {
      out += (reports.size() > 1 ? "== " + report.file + "\n" : "") + ValidationTable(report);
    }
    for (const auto& cv : cvs) out += CrossValidationTable(cv, reports);
    if (cvs.size() > 1) out += "\nCross-validation summary:\n" + CrossValidationSummaryTable(all);
    return out;
  }
  MarkdownInput input;
  input.reports = reports;
  if (fit) input.fit_section = EfficiencyFitMarkdown(*fit, o.files.front());
  input.command = CommandText(o);
  if (cvs.size() > 1) input.headline = CrossValidationSummaryMarkdown(all);
  for (const auto& cv : cvs) input.headline += CrossValidationMarkdown(cv, reports);
  if (!o.notes.empty()) input.notes = ReadText(o.notes, "--notes");
  return ValidationMarkdown(input);
}

void RunValidate(const ValidateOptions& o, CliContext& ctx) {
  CheckOptions(o);
  std::vector<std::vector<RunSpec>> files;
  for (const auto& path : o.files) files.push_back(LoadValidationRuns(path));
  ValidationOptions options;
  options.threads = o.threads;
  options.holdout_every = o.holdout_every;
  options.run.simulate_top = o.simulate_top;
  EfficiencyFitOptions fit_options;
  fit_options.holdout_every = o.holdout_every;
  fit_options.threads = o.threads;
  fit_options.run = options.run;
  // One cache of family fits for every grouping and the --fit-efficiency fit: the same runs, the
  // same options, so a family fitted on the same runs is fitted once.
  fit_options.cache = std::make_shared<FamilyFitCache>();
  // Each fold refits from the priors, so the cross-validation never sees a fit of its own runs.
  // The folds are the first file's sources; evaluation-only runs of every file are predicted by
  // a fit on all the first file's other runs, and fitted by nothing.
  // The evaluation-only runs are predicted once, by the first grouping listed.
  std::vector<CrossValidationResult> cvs;
  for (const CvGrouping by : CvGroupings(o.cv)) {
    std::vector<RunSpec> cv_runs;
    for (const auto& run : files.front()) {
      if (cvs.empty() || !run.evaluation_only) cv_runs.push_back(run);
    }
    for (size_t i = 1; cvs.empty() && i < files.size(); ++i) {
      for (const auto& run : files[i]) {
        if (run.evaluation_only) cv_runs.push_back(run);
      }
    }
    ProgressBar bar = StderrProgressBar(ctx, std::string(ToString(by)) + " folds");
    cvs.push_back(CrossValidate(cv_runs, fit_options, by,
                                [&bar](int64_t done, int64_t total) { bar.Update(done, total); }));
  }
  std::unique_ptr<EfficiencyFitResult> fit;
  if (!o.fit_out.empty()) {
    ProgressBar bar = StderrProgressBar(ctx, "GPU-family fits");
    fit_options.progress = [&bar](double share, int64_t families) {
      bar.UpdateShare(share, families);
    };
    fit = std::make_unique<EfficiencyFitResult>(FitEfficiencies(files.front(), fit_options));
    bar.Finish();
    fit_options.progress = nullptr;
    WriteFittedEfficiencies(*fit, o.fit_out, *ctx.err);
    for (auto& runs : files) runs = WithEfficiencies(std::move(runs), fit->defaults);
  }
  std::vector<ValidationReport> reports;
  for (size_t i = 0; i < files.size(); ++i) {
    ProgressBar bar = StderrProgressBar(ctx, "runs");
    options.progress = [&bar](int64_t done, int64_t total) { bar.Update(done, total); };
    reports.push_back(ValidateRuns(files[i], options));
    reports.back().file = o.files[i];
  }
  const std::string text = Render(o, reports, fit.get(), cvs);
  if (o.output.empty()) {
    *ctx.out << text;
  } else {
    WriteText(o.output, text, "-o");
  }
  ctx.exit_code = 0;
}

}  // namespace

void AddValidateCommand(CLI::App& app, CliContext& ctx) {
  auto opts = std::make_shared<ValidateOptions>();
  auto* sub = app.add_subcommand("validate", "compare predictions with measured training runs");
  sub->add_option("RUNS", opts->files, "runs files (DESIGN.md \"Runs file\")")->required();
  sub->add_option("--format", opts->format, "table (default), json or markdown");
  sub->add_option("--threads", opts->threads, "runs evaluated at once (0 = all cores)")
      ->check(IntRange(0, kMaxThreads));
  sub->add_option("--holdout-every", opts->holdout_every,
                  "hold every K-th run per GPU family (by id) out of the efficiency fit; "
                  "0 = none (default 4)");
  sub->add_option("--simulate-top", opts->simulate_top,
                  "per run, re-run this many of the best estimates in the simulator (default 4)");
  sub->add_option("--fit-efficiency", opts->fit_out,
                  "fit the default efficiencies per GPU family to the first runs file (its "
                  "evaluation-only runs excluded), write them to this "
                  "hardware/efficiency.yaml-format file, and validate with them");
  sub->add_option("--cv", opts->cv,
                  "also report cross-validated error, one or more of (comma-separated): source "
                  "(each source of the first runs file predicted by an efficiency fit on its "
                  "other sources' runs; evaluation-only runs of every file are predicted by a fit "
                  "on all of them), gpu (each GPU family predicted as a GPU nobody fitted), "
                  "framework (each framework left out), scale (fit at <= 1024 GPUs, predict "
                  "above)");
  sub->add_option("--notes", opts->notes, "Markdown placed in the markdown output");
  sub->add_option("-o,--output", opts->output, "write the result to this file");
  sub->footer(
      "Exit 0 when the runs file is valid (runs that cannot be evaluated are reported with\n"
      "status error); 2 for a malformed file.\n\n"
      "Examples:\n"
      "  paraplan validate docs/validation/public_runs.yaml\n"
      "  paraplan validate docs/validation/public_runs.yaml --format json\n"
      "  paraplan validate docs/validation/public_runs.yaml --cv source\n"
      "  paraplan validate docs/validation/public_runs.yaml docs/validation/reserved_runs.yaml "
      "--cv source\n"
      "  paraplan validate docs/validation/public_runs.yaml --cv gpu\n"
      "  paraplan validate docs/validation/public_runs.yaml --fit-efficiency my_efficiency.yaml");
  sub->callback([opts, &ctx] { RunValidate(*opts, ctx); });
}

}  // namespace paraplan
