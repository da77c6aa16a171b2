// The pipeline layout as `explain` prints it (issue 15): per stage its layers, what else it holds
// (embedding, loss, MTP), its forward + backward time per micro-batch and its memory, with the
// bottleneck stage and the peak-memory stage marked, and the Megatron-LM layout string.
#pragma once

#include <string>

#include "cost/step_result.h"

namespace paraplan {

// Empty for a plan without pipeline parallelism.
std::string StageLayoutText(const StepResult& result);

}  // namespace paraplan
