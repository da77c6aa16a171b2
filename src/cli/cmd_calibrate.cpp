// `paraplan calibrate fit RAW.csv... -o PROFILE.yaml`: fits harness measurements into a profile.
// `paraplan calibrate check -c CLUSTER RAW.csv...`: predicted against measured kernel times.
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "calib/fit_summary.h"
#include "calib/profile_check.h"
#include "calib/profile_fit.h"
#include "calib/raw_csv.h"
#include "cli/command.h"
#include "config/profile_io.h"
#include "config/resolve.h"
#include "core/error.h"

namespace paraplan {
namespace {

struct FitOptions {
  std::vector<std::string> inputs;
  std::string output;
  std::string format = "table";
};

void RunFit(const FitOptions& options, CliContext& ctx) {
  const std::vector<RawRow> rows = ReadRawCsvFiles(options.inputs);
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

// The positional raw CSV files both subcommands read.
void AddCsvInputs(CLI::App* sub, std::vector<std::string>& inputs) {
  sub->add_option("csv", inputs,
                  "raw CSV files written by paraplan-calibrate, or saved nccl-tests output")
      ->required()
      ->check(CLI::ExistingFile);
}

void AddFitSubcommand(CLI::App& calibrate, CliContext& ctx) {
  auto options = std::make_shared<FitOptions>();
  auto* fit = calibrate.add_subcommand(
      "fit",
      "fit raw harness CSVs (or nccl-tests output) into a calibration profile (YAML)\n\n"
      "Examples:\n"
      "  paraplan calibrate fit gemm.csv nccl.csv -o profiles/h100.yaml\n"
      "  paraplan calibrate fit all_reduce_perf_2x8.txt -o profiles/net.yaml   (nccl-tests "
      "stdout)\n"
      "  paraplan calibrate fit calibrate/data/*.csv -o p.yaml --format json\n"
      "  paraplan calibrate fit nccl.csv            (profile YAML on stdout, summary on stderr)\n\n"
      "A hardware file then uses it with `profile: profiles/h100.yaml`.");
  AddCsvInputs(fit, options->inputs);
  fit->add_option("-o,--output", options->output,
                  "profile YAML to write (atomically); '-' or absent: stdout");
  fit->add_option("--format", options->format, "summary format when -o is a file")
      ->check(CLI::IsMember({"table", "json"}));
  fit->callback([options, &ctx] { RunFit(*options, ctx); });
}

struct CheckOptions {
  std::vector<std::string> inputs;
  std::string cluster;
  std::string format = "table";
};

void RunCheck(const CheckOptions& options, CliContext& ctx) {
  Cluster cluster = LoadCluster(options.cluster);
  if (!cluster.profile && !ctx.quiet) {
    *ctx.err << "paraplan: warning: cluster '" << cluster.name
             << "' has no calibration profile; both columns show the built-in defaults\n";
  }
  const std::vector<RawRow> rows = ReadRawCsvFiles(options.inputs);
  const ProfileCheck check = CheckProfile(cluster, rows);
  if (options.format == "json") {
    *ctx.out << ProfileCheckJson(check).Dump(2) << "\n";
  } else {
    *ctx.out << ProfileCheckTable(check);
  }
  ctx.exit_code = 0;
}

void AddCheckSubcommand(CLI::App& calibrate, CliContext& ctx) {
  auto options = std::make_shared<CheckOptions>();
  auto* check = calibrate.add_subcommand(
      "check",
      "predicted against measured kernel times for raw harness CSVs\n\n"
      "Each GEMM, attention, memory-copy, element-wise op (ops mode) and collective row\n"
      "(harness or nccl-tests output) is predicted by the cost model with the cluster's\n"
      "calibration profile and with the built-in defaults; give it rows that were not\n"
      "fitted to see how a profile carries over to new shapes and sizes.\n\n"
      "Examples:\n"
      "  paraplan calibrate check -c dgx-h200-calibrated "
      "calibrate/data/h200-2026-11-29/gemm_holdout.csv\n"
      "  paraplan calibrate check -c dgx-h100 gemm.csv --format json\n"
      "  paraplan calibrate check -c my-cluster all_reduce_perf_2x8.txt");
  AddCsvInputs(check, options->inputs);
  check->add_option("-c,--cluster", options->cluster, "cluster name or hardware YAML path")
      ->required();
  check->add_option("--format", options->format, "output format")
      ->check(CLI::IsMember({"table", "json"}));
  check->callback([options, &ctx] { RunCheck(*options, ctx); });
}

}  // namespace

void AddCalibrateCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand(
      "calibrate",
      "fit GPU measurements into a calibration profile, and check a profile against them\n\n"
      "The measurements come from the CUDA/NCCL harness `paraplan-calibrate` (see "
      "docs/calibration.md).\n\n"
      "Examples:\n"
      "  paraplan-calibrate nccl -b 1K -e 4G -f 2 -o raw.csv\n"
      "  paraplan calibrate fit raw.csv -o profile.yaml\n"
      "  paraplan calibrate check -c my-cluster held_out.csv");
  sub->require_subcommand(1);
  AddFitSubcommand(*sub, ctx);
  AddCheckSubcommand(*sub, ctx);
}

}  // namespace paraplan
