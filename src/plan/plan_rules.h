// The rules a plan must obey for a model, a cluster and a GPU count (DESIGN.md "Search").
// Each violation is a sentence a user understands ("tp=3 does not divide heads=64").
#pragma once

#include <string>
#include <vector>

#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// Every rule the plan breaks; empty when the plan is valid. Cheap enough for the search's
// inner loop when `first_only` is true (stops at the first violation).
std::vector<std::string> PlanViolations(const ModelSpec& model, const Cluster& cluster,
                                        int64_t gpus, const ParallelPlan& plan,
                                        bool first_only = false);

}  // namespace paraplan
