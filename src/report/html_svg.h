// The inline SVG pieces of the HTML report (html_reporter.cpp): per-stage memory bars and the
// simulated timeline of a plan. Plain strings, no scripts, no external references.
#pragma once

#include <string>
#include <vector>

#include "cost/step_result.h"
#include "sim/pipeline_input.h"

namespace paraplan {

inline constexpr size_t kMaxTimelineEvents = 20000;  // drawn; the rest is summarized in a note

// &, <, >, " and ' escaped for text and attribute values.
std::string HtmlEscape(const std::string& text);

// One stacked bar per pipeline stage (weights, gradients, optimizer, activations, other) against
// the GPU's capacity, in GiB.
std::string MemoryBarsSvg(const StepResult& result);

// One row per stage and stream ("stage 0 compute", "stage 0 pp", ...), one box per event, time
// in seconds along x. At most kMaxTimelineEvents boxes (the earliest).
std::string TimelineSvg(const std::vector<TimelineEvent>& timeline);

}  // namespace paraplan
