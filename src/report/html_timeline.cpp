// The HTML report's timeline figure (html_svg.h): one box per event for short timelines, per-bin
// busy columns for long ones (a 405B plan with 40 virtual stages has tens of thousands of
// events, which as boxes are a smear of sub-pixel slivers), and at most kMaxTimelineStages
// stages. What was aggregated or left out is written in the figure.
#include <algorithm>
#include <array>
#include <map>
#include <utility>

#include "core/format.h"
#include "core/text_table.h"
#include "plan/parallel_plan.h"
#include "report/html_svg.h"
#include "search/plan_folding.h"

namespace paraplan {

namespace {

using namespace svg;
using RowKey = std::pair<int64_t, std::string>;  // (stage, stream)

struct Activity {
  const char* name;
  const char* color;
};
constexpr std::array<Activity, 8> kActivities = {{{"forward", "#4e79a7"},
                                                  {"backward", "#59a14f"},
                                                  {"weight grad", "#76b7b2"},
                                                  {"recompute", "#f28e2b"},
                                                  {"optimizer", "#b07aa1"},
                                                  {"pp send", "#bcaaa4"},
                                                  {"dp comm", "#9e9e9e"},
                                                  {"tp/cp/ep comm", "#edc948"}}};

size_t ActivityOf(const TimelineEvent& e) {
  if (e.stream == ToString(ParallelDim::kPp)) return 5;
  if (e.stream == ToString(ParallelDim::kDp)) return 6;
  if (e.stream != "compute") return 7;
  switch (e.name.empty() ? ' ' : e.name[0]) {
    case 'F':
      return 0;
    case 'B':
      return 1;
    case 'W':
      return 2;
    case 'R':
      return 3;
    default:
      return 4;
  }
}

// The stages drawn: all, or kMaxTimelineStages spread evenly with the first and the last.
std::vector<int64_t> ShownStages(const std::vector<TimelineEvent>& timeline) {
  std::vector<int64_t> stages;
  stages.reserve(timeline.size());
  for (const TimelineEvent& e : timeline) stages.push_back(e.stage);
  std::sort(stages.begin(), stages.end());
  stages.erase(std::unique(stages.begin(), stages.end()), stages.end());
  if (stages.size() <= kMaxTimelineStages) return stages;
  std::vector<int64_t> shown;
  for (size_t at : SpreadEvenly(stages.size(), kMaxTimelineStages)) shown.push_back(stages[at]);
  return shown;
}

double Seconds(Nanos ns) {
  return static_cast<double>(ns) * 1e-9;
}

// Busy time of one row: the union of its events' intervals.
Nanos BusyNanos(std::vector<std::pair<Nanos, Nanos>> spans) {
  std::sort(spans.begin(), spans.end());
  Nanos busy = 0;
  Nanos reached = 0;
  for (const auto& [start, end] : spans) {
    const Nanos from = std::max(start, reached);
    if (end > from) busy += end - from;
    reached = std::max(reached, end);
  }
  return busy;
}

std::string EventBox(const TimelineEvent& e, double y, double scale) {
  const double dur = Seconds(e.end - e.start);
  const std::string title = "stage " + std::to_string(e.stage) + " " + e.stream + ": " + e.name +
                            ", " + FormatFixed(Seconds(e.start), 3) + "-" +
                            FormatFixed(Seconds(e.end), 3) + " s (" + Duration(dur) + ")";
  return TitledRect(kLabel + static_cast<double>(e.start) * scale, y,
                    static_cast<double>(e.end - e.start) * scale, kRow - 4,
                    kActivities[ActivityOf(e)].color, title, e.name + " " + Duration(dur), e.name);
}

using Bins = std::vector<std::array<double, kActivities.size()>>;  // busy ns per bin and activity

// Per bin one column as high as the bin's busy share, stacked by activity (largest at the
// bottom), with the breakdown in its tooltip.
std::string BinColumns(const RowKey& key, const Bins& bins, double y, double bin_ns) {
  const double bin_px = static_cast<double>(kWidth) / static_cast<double>(bins.size());
  const double h = kRow - 4;
  std::string s;
  for (size_t b = 0; b < bins.size(); ++b) {
    double total = 0;
    for (double ns : bins[b]) total += ns;
    if (total <= 0) continue;
    const double fit = std::max(total / bin_ns, 1.0);  // overlapping transfers: cap at the row
    std::array<size_t, kActivities.size()> order{};
    for (size_t a = 0; a < order.size(); ++a) order[a] = a;
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t l, size_t r) { return bins[b][l] > bins[b][r]; });
    const double from = bin_ns * static_cast<double>(b) * 1e-9;
    std::string title = "stage " + std::to_string(key.first) + " " + key.second + ", " +
                        FormatFixed(from, 3) + "-" + FormatFixed(from + bin_ns * 1e-9, 3) +
                        " s: " + FormatFixed(std::min(total / bin_ns, 1.0) * 100, 0) + "% busy (";
    std::string rects;
    double bottom = y + h;
    for (size_t a : order) {
      if (bins[b][a] <= 0) break;
      const double part = h * bins[b][a] / bin_ns / fit;
      rects += Rect(kLabel + bin_px * static_cast<double>(b), bottom - part, bin_px, part,
                    kActivities[a].color);
      bottom -= part;
      title += std::string(a == order.front() ? "" : ", ") + kActivities[a].name + " " +
               FormatFixed(100 * bins[b][a] / bin_ns, 0) + "%";
    }
    s.append("<g><title>").append(HtmlEscape(title + ")")).append("</title>");
    s.append(rects).append("</g>");
  }
  return s;
}

void AddToBins(const TimelineEvent& e, double bin_ns, Bins& bins) {
  const size_t activity = ActivityOf(e);
  const auto last = static_cast<double>(bins.size() - 1);
  const auto first_bin = static_cast<size_t>(std::min(static_cast<double>(e.start) / bin_ns, last));
  const auto last_bin = static_cast<size_t>(std::min(static_cast<double>(e.end) / bin_ns, last));
  for (size_t b = first_bin; b <= last_bin; ++b) {
    const double lo = std::max(static_cast<double>(e.start), bin_ns * static_cast<double>(b));
    const double hi = std::min(static_cast<double>(e.end), bin_ns * static_cast<double>(b + 1));
    if (hi > lo) bins[b][activity] += hi - lo;
  }
}

std::string StageNote(const std::vector<int64_t>& shown, size_t stages) {
  std::string list;
  for (int64_t s : shown) list += (list.empty() ? "" : ", ") + std::to_string(s);
  return "Showing " + std::to_string(shown.size()) + " of " + std::to_string(stages) +
         " pipeline stages (" + list + "), spread evenly.";
}

}  // namespace

std::string TimelineSvg(const std::vector<TimelineEvent>& timeline) {
  const std::vector<int64_t> shown = ShownStages(timeline);
  std::map<int64_t, bool> all_stages;
  std::map<RowKey, int> rows;
  std::map<RowKey, std::vector<std::pair<Nanos, Nanos>>> spans;
  Nanos end = 1;
  size_t events = 0;
  for (const TimelineEvent& e : timeline) {
    all_stages[e.stage] = true;
    end = std::max(end, e.end);
    if (!std::binary_search(shown.begin(), shown.end(), e.stage)) continue;
    spans[{e.stage, e.stream}].emplace_back(e.start, e.end);
    ++events;
  }
  std::string body;
  int next = 0;
  for (auto& [key, span] : spans) {
    const int row = next++;
    rows[key] = row;
    const double y = 10 + row * kRow;
    body +=
        Text(kLabel - 8, y + 14, "stage " + std::to_string(key.first) + " " + key.second, "end");
    const double busy = Seconds(BusyNanos(std::move(span)));
    body += Text(kLabel + kWidth + 6, y + 14, FormatFixed(100 * busy / Seconds(end), 0) + "% busy");
  }
  const double scale = static_cast<double>(kWidth) / static_cast<double>(end);
  const bool aggregate = events > kMaxTimelineBoxes;
  const double bin_ns = static_cast<double>(end) / kTimelineBins;
  std::map<RowKey, Bins> bins;
  for (const TimelineEvent& e : timeline) {
    const auto row = rows.find({e.stage, e.stream});
    if (row == rows.end()) continue;
    if (!aggregate) {
      body += EventBox(e, 10 + row->second * kRow, scale);
      continue;
    }
    Bins& b = bins[row->first];
    if (b.empty()) b.resize(kTimelineBins);
    AddToBins(e, bin_ns, b);
  }
  for (const auto& [key, b] : bins) body += BinColumns(key, b, 10 + rows[key] * kRow, bin_ns);
  double y = 10 + next * kRow;
  body += Text(kLabel, y + 14, "0 s") +
          Text(kLabel + kWidth, y + 14, FormatFixed(Seconds(end), 3) + " s", "end");
  std::vector<std::pair<const char*, const char*>> legend;
  legend.reserve(kActivities.size());
  for (const Activity& a : kActivities) legend.emplace_back(a.name, a.color);
  body += Legend(legend, y + 36);
  y += 46;
  std::vector<std::string> notes;
  if (shown.size() < all_stages.size()) notes.push_back(StageNote(shown, all_stages.size()));
  if (aggregate) {
    notes.push_back(GroupThousands(static_cast<int64_t>(events)) + " events aggregated into " +
                    std::to_string(kTimelineBins) + " time bins of " + Duration(bin_ns * 1e-9) +
                    " per row: a column's height is the share of its bin");
    notes.push_back(
        "that is busy, stacked by activity (hover for the breakdown); each row's busy share of "
        "the step at its right.");
  } else {
    notes.push_back(
        "One box per event (hover for its times); each row's busy share of the step "
        "at its right.");
  }
  for (const std::string& note : notes) {
    body += "<text class=\"note\" x=\"" + Num(kLabel) + "\" y=\"" + Num(y + 8) + "\">" +
            HtmlEscape(note) + "</text>";
    y += 16;
  }
  return Svg("timeline", static_cast<int>(y) + 4, "simulated timeline of the best plan", body);
}

}  // namespace paraplan
