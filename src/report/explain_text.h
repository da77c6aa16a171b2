// `paraplan explain`: a readable account of one plan — the time per step by cause, each stage's
// forward/backward time and memory, the dominant cost, and which knob would relieve it.
#pragma once

#include <string>

#include "cost/step_result.h"
#include "sim/pipeline_input.h"

namespace paraplan {

// `stages` gives per-stage, per-micro-batch compute (StepModel::BuildPipelineInput).
std::string ExplainText(const StepResult& result, const PipelineInput& stages);

// A short table (simulate --format table).
std::string StepResultTable(const StepResult& result);

// What would relieve the dominant time cost, and the memory when the plan does not fit.
std::string TimeAdvice(const StepResult& result);
std::string MemoryAdvice(const StepResult& result);

// The peak-memory stage and its largest part ("activations", "optimizer state", "weights",
// "gradients", "other"): what memory advice names. `result.memory` must not be empty.
struct PeakMemoryPart {
  const StageMemory* stage = nullptr;
  const char* part = "";
  double part_bytes = 0;
};
PeakMemoryPart LargestMemoryPart(const StepResult& result);

}  // namespace paraplan
