// Which knob changes would relieve a plan's dominant time cost or its memory overflow, for
// `explain` and `simulate`. Only changes the plan does not already have are suggested: a plan
// with recompute=full is not told to recompute, one in fp8 is not told to use fp8.
#pragma once

#include <string>
#include <vector>

#include "cost/step_result.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// `cost` names a part of the time breakdown as explain prints it ("compute", "pipeline bubble",
// "TP communication", ..., "optimizer step").
// When the plan does not fit (fits = false), nothing that needs more memory is suggested (a
// larger micro_batch, less recompute).
std::vector<std::string> TimeRelief(const ParallelPlan& plan, const std::string& cost,
                                    bool fits = true);

// `part` names a part of the memory breakdown ("activations", "optimizer state", "weights",
// "gradients", "other").
std::vector<std::string> MemoryRelief(const ParallelPlan& plan, const std::string& part);

// MemoryRelief for the largest part of the fullest stage `peak`, led by a recipe change that
// frees memory elsewhere when there is one: ema=cpu when the EMA is on the GPU (it sits inside
// the optimizer state, rarely the largest part).
std::vector<std::string> MemoryReliefAt(const ParallelPlan& plan, const std::string& part,
                                        const StageMemory& peak);

}  // namespace paraplan
