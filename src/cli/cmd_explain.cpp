// TEMPORARY placeholder until the owning work lands; replaced by the real subcommand.
#include "cli/command.h"
#include "core/error.h"

namespace paraplan {

void AddExplainCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("explain", "not available yet");
  sub->allow_extras();
  sub->callback([&ctx] {
    (void)ctx;
    throw InputError("'explain' is not available in this build yet");
  });
}

}  // namespace paraplan
