// TEMPORARY placeholder until the owning work lands; replaced by the real subcommand.
#include "cli/command.h"
#include "core/error.h"

namespace paraplan {

void AddCalibrateCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("calibrate", "not available yet");
  sub->allow_extras();
  sub->callback([&ctx] {
    (void)ctx;
    throw InputError("'calibrate' is not available in this build yet");
  });
}

}  // namespace paraplan
