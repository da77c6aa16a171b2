// The inline SVG pieces of the HTML report (html_reporter.cpp): per-stage memory bars
// (html_svg.cpp) and the simulated timeline of a plan (html_timeline.cpp). Plain strings, no
// scripts, no external references. Every bar and box carries a <title> tooltip with its value;
// those wide enough also print it.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cost/step_result.h"
#include "sim/pipeline_input.h"

namespace paraplan {

// Timelines with at most this many events (in the rows shown) draw one box per event; longer
// ones are aggregated into kTimelineBins time bins per row (html_timeline.cpp).
inline constexpr size_t kMaxTimelineBoxes = 1200;
inline constexpr int kTimelineBins = 120;
// Pipelines with more stages than this show this many, spread evenly with both ends.
inline constexpr size_t kMaxTimelineStages = 8;

// &, <, >, " and ' escaped for text and attribute values.
std::string HtmlEscape(const std::string& text);

// One stacked bar per pipeline stage (weights, gradients, optimizer, activations, other) against
// the GPU's capacity, in GiB; the total right of each bar, each part's GiB inside it when wide
// enough and in its tooltip.
std::string MemoryBarsSvg(const StepResult& result);

// One row per stage and stream ("stage 0 compute", "stage 0 pp", ...), time in seconds along x,
// each row's busy share at its right. Up to kMaxTimelineBoxes events: one box per event, labelled
// with its name and duration when wide enough. More: per row and time bin one column whose
// height is the bin's busy share, stacked by activity; the figure says so.
std::string TimelineSvg(const std::vector<TimelineEvent>& timeline);

// Building blocks shared by the two figures.
namespace svg {
inline constexpr int kLabel = 130;  // px, the label column
inline constexpr int kWidth = 960;  // px, the drawing area right of the labels
inline constexpr int kValue = 90;   // px, the value column right of the drawing area
inline constexpr int kRow = 22;     // px per bar or timeline row
std::string Num(double v);
std::string Rect(double x, double y, double w, double h, const char* fill);
std::string Text(double x, double y, const std::string& text, const char* anchor = "start",
                 const char* fill = nullptr);
// A rect with a tooltip, and inside it (white, centred) `label` when the rect is wide enough,
// else `short_label` when that fits, else nothing.
std::string TitledRect(double x, double y, double w, double h, const char* fill,
                       const std::string& title, const std::string& label = "",
                       const std::string& short_label = "");
std::string Legend(const std::vector<std::pair<const char*, const char*>>& items, double y);
std::string Svg(const char* id, int height, const std::string& label, const std::string& body);
// "1.234 s", "16.0 ms", "250 us".
std::string Duration(double seconds);
}  // namespace svg

}  // namespace paraplan
