// The plan knobs (plan/knob_table.h) behind each knob of the plan space (plan_space.h): what a
// space knob's digit sets, hence which stages read it. The search's caches ask here instead of
// listing knobs by hand.
#pragma once

#include <vector>

#include "plan/knob_table.h"
#include "search/plan_space.h"

namespace paraplan {

// The plan knobs a space knob sets: one, or schedule and vpp for kScheduleVpp.
const std::vector<Knob>& PlanKnobsOf(SpaceKnob knob);

// Whether any stage in `readers` (KnobReader bits) reads a plan knob the space knob sets.
bool SpaceKnobReadBy(SpaceKnob knob, unsigned readers);

}  // namespace paraplan
