// PRIVATE to src/config: which member of PlanConstraints each plan knob sets, and how its text
// becomes the value (knob_values.h). The recipe switches (plan/recipe_switch.h) come from the knob
// table: this list holds only the knobs whose values parse their own way.
#pragma once

#include <string>
#include <vector>

#include "plan/knob_table.h"
#include "plan/plan_constraints.h"

namespace paraplan {

using KnobSetFn = void (*)(PlanConstraints&, const std::vector<std::string>&);

struct KnobSetter {
  const char* name;
  KnobSetFn set = nullptr;       // a knob that parses its own way
  const KnobRow* row = nullptr;  // a recipe switch: its knob-table row
};

// Every knob, in DESIGN.md order (the order `valid knobs:` lists them in).
const std::vector<KnobSetter>& KnobSetters();

// Sets the knob from its alternatives as text; throws InputError (message only) on a bad value.
void SetKnob(const KnobSetter& knob, PlanConstraints& plan, const std::vector<std::string>& values);

}  // namespace paraplan
