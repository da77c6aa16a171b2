// TEMPORARY placeholder until the owning work lands; replaced by the real subcommand.
#include "cli/command.h"
#include "core/error.h"

namespace paraplan {

void AddPlanCommand(CLI::App& app, CliContext& ctx) {
  auto* sub = app.add_subcommand("plan", "not available yet");
  sub->allow_extras();
  sub->callback([&ctx] {
    (void)ctx;
    throw InputError("'plan' is not available in this build yet");
  });
}

}  // namespace paraplan
