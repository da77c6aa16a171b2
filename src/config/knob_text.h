// Plan knobs by name, for code outside src/config that holds knob=value text (the framework
// profiles' defaults): whether a constraint list states a knob, and setting one from its text.
#pragma once

#include <string>

#include "plan/plan_constraints.h"

namespace paraplan {

// Whether `plan` fixes or restricts `knob` (a --plan name; `value`, one value it takes, finds the
// member it sets). Throws InputError for an unknown knob or a value it does not take.
bool KnobStated(const PlanConstraints& plan, const std::string& knob, const std::string& value);

// Sets `knob` to the one value `value` (as --plan writes it). Throws InputError for a bad one.
void SetKnobText(PlanConstraints& plan, const std::string& knob, const std::string& value);

}  // namespace paraplan
