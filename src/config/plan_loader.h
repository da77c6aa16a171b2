// PRIVATE to src/config: plan knobs (DESIGN.md "Plan knobs") from a YAML `plan:` mapping or from
// the `--plan` string (plan_string_reader.cpp), into PlanConstraints. One list of knobs serves both
// (knob_setters.h: how each knob's text sets its member).
//   YAML:   {tp: 8, pp: [2, 4], recompute: selective, pp_layers: [15, 16, 16, 15]}
//   string: "tp=8,pp=2|4,recompute=selective,pp_layers=15/16/16/15"
#pragma once

#include <string>
#include <vector>

#include "config/yaml_reader.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// Every knob name, in DESIGN.md order.
std::vector<std::string> PlanKnobNames();

// The knob `name` sets: itself, or the knob a Megatron-LM alias stands for (knob_aliases.h).
std::string CanonicalKnob(const std::string& name);

// The message for `written` setting `knob` that an earlier `before` already set (one of them an
// alias): "'weights_ema' sets ema, as 'ema' does: give it once".
std::string AliasClash(const std::string& written, const std::string& knob,
                       const std::string& before);

// Sets one knob from its alternatives as text ({"4", "8"}; pp_layers: {"15/16/16/15"}). Throws
// InputError (message only, no location) for an unknown knob or a bad value; callers add where.
void SetPlanKnob(PlanConstraints& plan, const std::string& knob,
                 const std::vector<std::string>& values);

// A `plan:` mapping: each knob a scalar or a list of alternatives (pp_layers: one list = one
// split). Errors carry file:line:col and the knob's key path.
PlanConstraints ReadPlanConstraints(const YamlNode& node);

}  // namespace paraplan
