// TEMPORARY placeholder until the owning work lands; replaced by the real subcommand.
#include "cli/command.h"
#include "core/error.h"

namespace paraplan {

void AddModelCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("model", "not available yet");
  sub->allow_extras();
  sub->callback([&ctx] {
    (void)ctx;
    throw InputError("'model' is not available in this build yet");
  });
}

}  // namespace paraplan
