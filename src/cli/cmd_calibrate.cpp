// `paraplan calibrate fit RAW.csv... -o PROFILE.yaml`: fits harness measurements into a profile.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "calib/fit_summary.h"
#include "calib/profile_fit.h"
#include "calib/raw_csv.h"
#include "cli/command.h"
#include "config/profile_io.h"
#include "core/error.h"

namespace paraplan {
namespace {

struct FitOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string format = "table";
};

void RunFit(const FitOptions& options, CliContext& ctx) {
  std::vector<RawRow> rows;
  for (const auto& path : options.inputs) {
    std::vector<RawRow> file_rows = ReadRawCsv(path);
    rows.insert(rows.end(), file_rows.begin(), file_rows.end());
  }
  const ProfileFitResult result = FitProfile(rows);
  if (!ctx.quiet) {
    for (const auto& warning : result.warnings)
      *ctx.err << "paraplan: warning: " << warning << "\n";
    if (ctx.verbosity > 0) *ctx.err << FitResidualLines(result);
  }
  const bool to_stdout = options.output.empty() || options.output == "-";
  if (to_stdout) {
    *ctx.out << ProfileToYaml(result.profile);
    if (!ctx.quiet) *ctx.err << FitSummaryTable(result);
  } else {
    SaveCalibrationProfile(result.profile, options.output);
    if (options.format == "json") {
      *ctx.out << FitSummaryJson(result).Dump(2) << "\n";
    } else {
      *ctx.out << FitSummaryTable(result) << "wrote " << options.output << "\n";
    }
  }
  ctx.exit_code = 0;
}

void AddFitSubcommand(CLI::App& calibrate, CliContext& ctx) {
  auto options = std::make_shared<FitOptions>();
  auto* fit = calibrate.add_subcommand(
      "fit",
      "fit raw harness CSVs into a calibration profile (YAML)\n\n"
      "Examples:\n"
      "  paraplan calibrate fit gemm.csv nccl.csv -o profiles/h100.yaml\n"
      "  paraplan calibrate fit calibrate/data/*.csv -o p.yaml --format json\n"
      "  paraplan calibrate fit nccl.csv            (profile YAML on stdout, summary on stderr)\n\n"
      "A hardware file then uses it with `profile: profiles/h100.yaml`.");
  fit->add_option("csv", options->inputs, "raw CSV files written by paraplan-calibrate")
      ->required()
      ->check(CLI::ExistingFile);
  fit->add_option("-o,--output", options->output,
                  "profile YAML to write (atomically); '-' or absent: stdout");
  fit->add_option("--format", options->format, "summary format when -o is a file")
      ->check(CLI::IsMember({"table", "json"}));
  fit->callback([options, &ctx] { RunFit(*options, ctx); });
}

}  // namespace

void AddCalibrateCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand(
      "calibrate",
      "fit GPU measurements into a calibration profile\n\n"
      "The measurements come from the CUDA/NCCL harness `paraplan-calibrate` (see "
      "docs/calibration.md).\n\n"
      "Examples:\n"
      "  paraplan-calibrate nccl -b 1K -e 4G -f 2 -o raw.csv\n"
      "  paraplan calibrate fit raw.csv -o profile.yaml");
  sub->require_subcommand(1);
  AddFitSubcommand(*sub, ctx);
}

}  // namespace paraplan
