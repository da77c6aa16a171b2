// One-line plan descriptions for messages and tables: "tp=8 pp=4 dp=32 mb=1 selective zero=1 1f1b".
#pragma once

#include <string>

#include "plan/parallel_plan.h"

namespace paraplan {

// The knobs that distinguish plans in a search, in a fixed order; knobs at their neutral value
// (cp=1, ep=1, vpp=1, ...) are left out.
std::string PlanSummary(const ParallelPlan& plan);

}  // namespace paraplan
