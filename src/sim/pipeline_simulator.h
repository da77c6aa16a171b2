// Event-driven pipeline simulator: runs a schedule's per-stage task lists on per-stage compute,
// pipeline-parallel and data-parallel streams and reports the step time and its breakdown.
#pragma once

#include "sim/pipeline_input.h"

namespace paraplan {

// Simulates one training step of the pipeline described by `input`. Throws InputError when the
// input is inconsistent (stage count != pp, chunk count != vpp, micro-batch rules of a schedule).
//
// Chunks per stage: vpp for interleaved, 1 for GPipe / 1F1B / zero-bubble; for DualPipe either 1
// (stages[s] = model stage s, and rank r also runs model stage pp - 1 - r, DP work summed) or 2
// (stages[r] describes rank r's two chunks). See docs/schedules.md.
// In the result: step = pipeline + dp_comm_exposed + optimizer exactly; pipeline = compute +
// bubble of the busiest stage (critical_stage), so the bubble includes the time that stage waits
// for transfers; pp_comm_exposed is the transfer time on the critical path (it overlaps the
// bubble, do not add it again); dp_comm_exposed includes a parameter gather that is not
// overlapped. Critical-path names: "F3@s0", "B3.c1@s2" (chunk 1), "W3@s1", "R3@s0",
// "param gather", "dp@s3", "optimizer@s3".
PipelineResult SimulatePipeline(const PipelineInput& input);

}  // namespace paraplan
