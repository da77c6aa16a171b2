// The memory recipe of a plan (plan/memory_recipe.h) as Megatron-LM's flags: `--format megatron`
// writes them, and the plan report names them when the search needed a recipe
// (search/memory_relief.h).
#pragma once

#include <string>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

// Appends the recipe's flags to `flags`; a knob Megatron-LM has no flag for becomes a line of
// `notes`, like the schedules it cannot name.
void MegatronRecipeFlags(const ParallelPlan& p, std::vector<std::string>& flags,
                         std::vector<std::string>& notes);

// The same flags on one line, space-separated ("" for the default recipe).
std::string MegatronRecipeFlagsText(const ParallelPlan& p);

}  // namespace paraplan
