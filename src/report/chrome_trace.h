// Chrome trace JSON ("Trace Event Format") for a simulated pipeline: opens in Perfetto
// (ui.perfetto.dev) and chrome://tracing. One process per pipeline stage ("stage N"), one thread
// per stream of that stage (compute, pp, dp, ...), one complete ("X") event per timeline event
// with ts/dur in microseconds (exact to the nanosecond) and the micro-batch and chunk in args.
#pragma once

#include <string>
#include <vector>

#include "sim/pipeline_input.h"

namespace paraplan {

// {"traceEvents":[...],"displayTimeUnit":"ms","otherData":{"title":...}}; the same timeline
// always gives the same bytes.
std::string ChromeTraceJson(const std::vector<TimelineEvent>& timeline, const std::string& title);

// "1.5" for 1500 ns, "0.001" for 1 ns, "12" for 12000 ns: exact decimal microseconds.
std::string NanosToMicrosText(Nanos nanos);

}  // namespace paraplan
