#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <exception>
#include <ostream>

#include "cli/cli_checks.h"
#include "cli/command.h"
#include "core/error.h"

namespace paraplan {

const CommandEntry* Commands(size_t* count) {
  static const CommandEntry kCommands[] = {
      {"plan", "search the parallelism plans for a model on a cluster and rank them",
       AddPlanCommand},
      {"simulate", "predict memory and step time of one fixed plan", AddSimulateCommand},
      {"explain", "why a fixed plan costs what it costs: per-stage time and memory",
       AddExplainCommand},
      {"study", "run a what-if study file (sweeps) and chart it", AddStudyCommand},
      {"validate", "compare predictions with measured training runs", AddValidateCommand},
      {"model", "list and describe models: `model list`, `model show NAME`", AddModelCommand},
      {"hardware", "list and describe clusters: `hardware list`, `hardware show NAME`",
       AddHardwareCommand},
      {"calibrate", "fit GPU measurements into a calibration profile", AddCalibrateCommand},
      {"completion", "print a shell completion script: `completion bash`", AddCompletionCommand},
  };
  *count = sizeof(kCommands) / sizeof(kCommands[0]);
  return kCommands;
}

namespace {

void SetUpLogging(const CliContext& ctx) {
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(*ctx.err);
  auto logger = std::make_shared<spdlog::logger>("paraplan", sink);
  logger->set_pattern("paraplan: %l: %v");
  if (ctx.quiet) {
    logger->set_level(spdlog::level::err);
  } else if (ctx.verbosity >= 2) {
    logger->set_level(spdlog::level::trace);
  } else if (ctx.verbosity == 1) {
    logger->set_level(spdlog::level::debug);
  } else {
    logger->set_level(spdlog::level::warn);
  }
  spdlog::set_default_logger(logger);
}

}  // namespace

int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
  CliContext ctx;
  ctx.out = &out;
  ctx.err = &err;
  CLI::App app{
      "paraplan: plan, simulate and explain parallelism for large-model training.\n\n"
      "Examples:\n"
      "  paraplan plan -m llama3-70b -c dgx-h100 -g 64 --global-batch 64\n"
      "  paraplan simulate -m llama3-70b -c dgx-h100 -g 64 --plan "
      "\"tp=8,pp=2,micro_batch=1,global_batch=64\"\n"
      "  paraplan model show deepseek-v3\n"
      "  paraplan hardware show gb200-nvl72",
      "paraplan"};
  app.set_version_flag("--version", PARAPLAN_VERSION);
  app.require_subcommand(1);
  app.add_flag("-v,--verbose", ctx.verbosity, "more diagnostics on stderr (-vv for trace)");
  app.add_flag("-q,--quiet", ctx.quiet, "only errors on stderr; no progress bar");
  app.fallthrough();
  size_t count = 0;
  const CommandEntry* commands = Commands(&count);
  for (size_t i = 0; i < count; ++i) commands[i].add(app, ctx);
  app.parse_complete_callback([&ctx] { SetUpLogging(ctx); });
  if (const std::string unknown = UnknownCommandMessage(app, argc, argv); !unknown.empty()) {
    err << "paraplan: error: " << unknown << "\n";
    return 2;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) {  // --help, --version
      app.exit(e, out, err);
      return 0;
    }
    // CLI11 checks required options before unknown ones: name the unknown one first.
    const std::string leftover = LeftoverArgumentMessage(app);
    err << "paraplan: error: " << (leftover.empty() ? std::string(e.what()) : leftover) << "\n";
    return 2;
  } catch (const InputError& e) {
    err << "paraplan: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    err << "paraplan: internal error: " << e.what() << "\n";
    return 3;
  }
  // Standard output to a full disk or a closed pipe (`> /dev/full`) is an error, not exit 0.
  out.flush();
  if (!out) {
    err << "paraplan: error: cannot write to standard output\n";
    return 2;
  }
  return ctx.exit_code;
}

}  // namespace paraplan
