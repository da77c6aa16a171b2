// Turns a simulated run into TimelineEvents (compute, pp and dp streams of every stage, and the
// TP/CP/EP/ZeRO-3 communication each compute task carries, one stream per group and link class)
// for the Chrome-trace reporter.
#pragma once

#include <vector>

#include "sim/dp_tail.h"
#include "sim/pipeline_input.h"
#include "sim/pipeline_layout.h"
#include "sim/pipeline_run.h"
#include "sim/schedule.h"

namespace paraplan {

// Per stage, in this order: compute tasks, sends, param gather, DP buckets, optimizer.
// `streams`: the trace track of each communication stream (PipelineInput::comm_streams).
std::vector<TimelineEvent> BuildTimeline(const PipelineLayout& layout, const TaskLists& lists,
                                         const TaskTimes& times,
                                         const std::vector<StageTail>& tails, Nanos p2p,
                                         const std::vector<Nanos>& hops,
                                         const std::array<std::string, kMaxCommStreams>& streams);

}  // namespace paraplan
