// Rules learnt by running paraplan's exports through the frameworks' own configuration code
// (../shared/realclients: Megatron-LM d98e8a6's validate_args / TransformerConfig, torchtitan
// b5bcd76's and 238fa99's start-up checks): what a launch of that framework version refuses, the
// search refuses. Each rule is named, with the framework version it belongs to and the upstream
// file that enforces it, so that it can move into that framework's versioned profile.
#pragma once

#include <string>
#include <vector>

#include "model/model_spec.h"
#include "plan/framework_caps.h"
#include "plan/parallel_plan.h"

namespace paraplan {

struct LaunchRule {
  const char* name;     // "megatron/ep-overlap-needs-vpp"
  Framework framework;  // the framework it belongs to
  const char* version;  // "Megatron-LM d98e8a6 (2026-08-22)"
  const char* source;   // where upstream enforces it
  const char* reason;   // why the plan is refused
  // Whether the plan (of the model, when known) breaks the rule.
  bool (*broken)(const ModelSpec* model, const ParallelPlan& plan);
};

// Every rule, in a fixed order.
const std::vector<LaunchRule>& LaunchRules();

// Appends "<name>: <reason> (<version>, <source>)" for each rule of `framework` the plan breaks.
void AddLaunchRuleViolations(Framework framework, const ModelSpec* model, const ParallelPlan& plan,
                             std::vector<std::string>& out);

}  // namespace paraplan
