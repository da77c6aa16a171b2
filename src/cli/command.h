// The subcommand table. Each subcommand lives in its own cmd_*.cpp and registers itself on the
// CLI11 app; its callback sets ctx.exit_code. Errors are thrown (InputError → exit 2).
#pragma once

#include <CLI/CLI.hpp>
#include <iosfwd>
#include <string>

namespace paraplan {

struct CliContext {
  std::ostream* out = nullptr;  // results (stdout or -o)
  std::ostream* err = nullptr;  // diagnostics
  bool quiet = false;
  int verbosity = 0;
  int exit_code = 0;
};

using RegisterFn = void (*)(CLI::App& app, CliContext& ctx);

struct CommandEntry {
  const char* name;
  const char* summary;
  RegisterFn add;
};

void AddPlanCommand(CLI::App& app, CliContext& ctx);
void AddSimulateCommand(CLI::App& app, CliContext& ctx);
void AddExplainCommand(CLI::App& app, CliContext& ctx);
void AddStudyCommand(CLI::App& app, CliContext& ctx);
void AddValidateCommand(CLI::App& app, CliContext& ctx);
void AddModelCommand(CLI::App& app, CliContext& ctx);
void AddHardwareCommand(CLI::App& app, CliContext& ctx);
void AddCalibrateCommand(CLI::App& app, CliContext& ctx);
void AddCompletionCommand(CLI::App& app, CliContext& ctx);
// `model list` / `hardware list` under `parent`; subdir "models" or "hardware".
void AddCatalogListCommand(CLI::App& parent, CliContext& ctx, const std::string& subdir);

// The table, in the order `paraplan --help` lists it.
const CommandEntry* Commands(size_t* count);

// Runs the CLI on argv; returns the process exit code. main() is a thin wrapper so that tests
// can run the whole CLI in-process with captured streams.
int RunCli(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

}  // namespace paraplan
