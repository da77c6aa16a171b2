// How a published run's knobs read under the framework that ran it. A runs file states knobs in
// paraplan's vocabulary, but sources write them in their framework's: torchtitan's "selective"
// activation checkpointing is per-op SAC, not Megatron-LM's; its "local batch" is the per-rank
// batch that a pipeline splits into micro-batches; and a knob a source leaves out is the
// framework's default, not a searched optimum. Every rule is in docs/validation.md with its source.
#pragma once

#include <string>
#include <vector>

#include "config/runs_file.h"
#include "model/model_spec.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// The run's `framework:`, else inferred from its source citation ("torchtitan"; "Megatron",
// "NeMo"), else kUnstated (no conventions apply).
Framework FrameworkOf(const RunSpec& run);

// The constraints as the framework ran them; `notes` gets one "knob=value (why)" per change.
PlanConstraints ApplyFrameworkConventions(Framework framework, const ModelSpec& model,
                                          PlanConstraints plan, std::vector<std::string>* notes);

}  // namespace paraplan
