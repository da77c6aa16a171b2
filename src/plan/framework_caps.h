// What each training framework can run (`plan --framework`): the schedules, ZeRO/FSDP modes,
// recompute modes, precisions and overlap switches a launch of Megatron-LM, torchtitan or
// DeepSpeed can express, so that the search stays inside it and the export reproduces the
// predicted plan exactly. The table, with the upstream source of every rule, is in docs/search.md
// ("Framework capabilities").
#pragma once

#include <string>
#include <vector>

#include "model/model_spec.h"
#include "plan/framework.h"
#include "plan/parallel_plan.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// The per-value refusals and the kernels come from the framework's newest profile
// (plan/framework_profile.h); the rules that tie knobs together are below, per framework.

// Why `framework` cannot run this plan of this model (one sentence per reason, with its source);
// empty when it can (always empty for kAny and for a framework without a profile's refusals). A
// null model checks the plan's knobs only.
std::vector<std::string> FrameworkViolations(Framework framework, const ModelSpec* model,
                                             const ParallelPlan& plan, bool first_only = false);

// The model-only part of FrameworkViolations: why no plan of this model can run there.
std::vector<std::string> FrameworkModelViolations(Framework framework, const ModelSpec& model);

// The constraints narrowed to what the framework can run: a knob the user left free is limited
// to the framework's values (searched where the default search would search it); a knob the user
// restricted keeps only the values the framework has. Throws InputError (naming --plan and the
// framework) when a restricted knob keeps none. kAny returns the constraints unchanged.
PlanConstraints RestrictToFramework(Framework framework, PlanConstraints constraints);

}  // namespace paraplan
