// Turns a simulated run into TimelineEvents (compute, pp and dp streams of every stage) for the
// Chrome-trace reporter.
#pragma once

#include <vector>

#include "sim/dp_tail.h"
#include "sim/pipeline_input.h"
#include "sim/pipeline_layout.h"
#include "sim/pipeline_run.h"
#include "sim/schedule.h"

namespace paraplan {

// Per stage, in this order: compute tasks, sends, param gather, DP buckets, optimizer.
std::vector<TimelineEvent> BuildTimeline(const PipelineLayout& layout, const TaskLists& lists,
                                         const TaskTimes& times,
                                         const std::vector<StageTail>& tails, Nanos p2p);

}  // namespace paraplan
