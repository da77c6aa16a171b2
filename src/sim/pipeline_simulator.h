// Event-driven pipeline simulator: runs a schedule's per-stage task lists on per-stage compute,
// pipeline-parallel and data-parallel streams and reports the step time and its breakdown.
#pragma once

#include "sim/pipeline_input.h"

namespace paraplan {

// Simulates one training step of the pipeline described by `input`. Throws InputError when the
// input is inconsistent (stage count != pp, chunk count != vpp, micro-batch rules of a schedule).
PipelineResult SimulatePipeline(const PipelineInput& input);

}  // namespace paraplan
