// How a published run's knobs read under the framework version that ran it (its profile,
// plan/framework_profile.h). A runs file states knobs in paraplan's vocabulary, but sources write
// them in their framework's: torchtitan's "selective" activation checkpointing is per-op SAC, not
// Megatron-LM's; its "local batch" is the per-rank batch that a pipeline splits into
// micro-batches; and a knob a source leaves out is the framework version's default, not a searched
// optimum. Every rule is in docs/frameworks.md with its source.
#pragma once

#include <string>
#include <vector>

#include "config/runs_file.h"
#include "model/model_spec.h"
#include "plan/framework_profile.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// The profile of the run's `framework:` at its `framework_version:` (its newest when unstated);
// null when the run states no framework: then no conventions apply and its unstated knobs are
// searched. Nothing is guessed from the citation.
const FrameworkProfile* ProfileOfRun(const RunSpec& run);

// The constraints as that framework version ran them: its runtime (kernels, K/V heads, batch
// split, FSDP under PP) and, for each knob the run leaves unset, its default. `notes` gets one
// "knob=value (why)" per change. A null profile returns the constraints unchanged.
PlanConstraints ApplyFrameworkConventions(const FrameworkProfile* profile, const ModelSpec& model,
                                          PlanConstraints plan, std::vector<std::string>* notes);

}  // namespace paraplan
