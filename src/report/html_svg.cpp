#include "report/html_svg.h"

#include <algorithm>
#include <map>
#include <utility>

#include "core/format.h"
#include "core/units.h"
#include "plan/parallel_plan.h"

namespace paraplan {

namespace {

constexpr int kWidth = 960;  // px, the drawing area right of the labels
constexpr int kLabel = 130;  // px, the label column
constexpr int kRow = 22;     // px per bar or timeline row

std::string Num(double v) {
  return FormatFixed(v, 1);
}

std::string Rect(double x, double y, double w, double h, const char* fill) {
  return "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(std::max(w, 0.0)) +
         "\" height=\"" + Num(h) + "\" fill=\"" + fill + "\"/>";
}

std::string Text(double x, double y, const std::string& text, const char* anchor = "start") {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" + anchor + "\">" +
         HtmlEscape(text) + "</text>";
}

std::string Legend(const std::vector<std::pair<const char*, const char*>>& items, double y) {
  std::string s;
  double x = kLabel;
  for (const auto& [name, color] : items) {
    s += Rect(x, y - 10, 12, 12, color) + Text(x + 16, y, name);
    x += 30 + 8.0 * static_cast<double>(std::string(name).size());
  }
  return s;
}

std::string Svg(int height, const std::string& label, const std::string& body) {
  return "<svg role=\"img\" aria-label=\"" + HtmlEscape(label) + "\" width=\"" +
         std::to_string(kLabel + kWidth + 20) + "\" height=\"" + std::to_string(height) +
         "\" font-size=\"12\">" + body + "</svg>\n";
}

const char* EventColor(const TimelineEvent& e) {
  if (e.stream != "compute") return e.stream == ToString(ParallelDim::kDp) ? "#9e9e9e" : "#bcaaa4";
  switch (e.name.empty() ? ' ' : e.name[0]) {
    case 'F':
      return "#4e79a7";
    case 'B':
      return "#59a14f";
    case 'W':
      return "#76b7b2";
    case 'R':
      return "#f28e2b";
    default:
      return "#b07aa1";
  }
}

}  // namespace

std::string HtmlEscape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string MemoryBarsSvg(const StepResult& r) {
  static const std::vector<std::pair<const char*, const char*>> kParts = {
      {"weights", "#4e79a7"},
      {"gradients", "#f28e2b"},
      {"optimizer", "#e15759"},
      {"activations", "#59a14f"},
      {"other", "#9e9e9e"}};
  double top = r.memory_capacity_bytes;
  for (const StageMemory& m : r.memory) top = std::max(top, m.TotalBytes());
  if (top <= 0) top = 1;
  const double scale = kWidth / top;
  std::string body;
  double y = 10;
  for (const StageMemory& m : r.memory) {
    const double parts[] = {m.weights_bytes, m.grads_bytes, m.optimizer_bytes, m.activations_bytes,
                            m.other_bytes};
    body += Text(kLabel - 8, y + 15, "stage " + std::to_string(m.stage), "end");
    double x = kLabel;
    for (size_t i = 0; i < kParts.size(); ++i) {
      body += Rect(x, y, parts[i] * scale, kRow - 4, kParts[i].second);
      x += parts[i] * scale;
    }
    body += Text(x + 4, y + 15, FormatFixed(BytesToGiB(m.TotalBytes()), 1) + " GiB");
    y += kRow;
  }
  const double cap_x = kLabel + r.memory_capacity_bytes * scale;
  body += "<line x1=\"" + Num(cap_x) + "\" y1=\"4\" x2=\"" + Num(cap_x) + "\" y2=\"" + Num(y) +
          "\" stroke=\"#d62728\" stroke-dasharray=\"4 3\"/>";
  body += Text(cap_x, y + 14, FormatFixed(BytesToGiB(r.memory_capacity_bytes), 1) + " GiB capacity",
               "end");
  body += Legend(kParts, y + 34);
  return Svg(static_cast<int>(y) + 44, "memory per pipeline stage", body);
}

std::string TimelineSvg(const std::vector<TimelineEvent>& timeline) {
  std::map<std::pair<int64_t, std::string>, int> rows;  // (stage, stream) -> row
  Nanos end = 1;
  const size_t drawn = std::min(timeline.size(), kMaxTimelineEvents);
  for (size_t i = 0; i < drawn; ++i) {
    rows.emplace(std::make_pair(timeline[i].stage, timeline[i].stream), 0);
    end = std::max(end, timeline[i].end);
  }
  int next = 0;
  std::string body;
  for (auto& [key, row] : rows) {
    row = next++;
    body += Text(kLabel - 8, 10 + row * kRow + 14,
                 "stage " + std::to_string(key.first) + " " + key.second, "end");
  }
  const double scale = static_cast<double>(kWidth) / static_cast<double>(end);
  for (size_t i = 0; i < drawn; ++i) {
    const TimelineEvent& e = timeline[i];
    const int row = rows[{e.stage, e.stream}];
    body += Rect(kLabel + static_cast<double>(e.start) * scale, 10 + row * kRow,
                 static_cast<double>(e.end - e.start) * scale, kRow - 4, EventColor(e));
  }
  const double y = 10 + next * kRow;
  body +=
      Text(kLabel, y + 14, "0 s") +
      Text(kLabel + kWidth, y + 14, FormatFixed(static_cast<double>(end) * 1e-9, 3) + " s", "end");
  body += Legend({{"forward", "#4e79a7"},
                  {"backward", "#59a14f"},
                  {"weight grad", "#76b7b2"},
                  {"recompute", "#f28e2b"},
                  {"optimizer", "#b07aa1"},
                  {"pp send", "#bcaaa4"},
                  {"dp comm", "#9e9e9e"}},
                 y + 36);
  return Svg(static_cast<int>(y) + 46, "simulated timeline of the best plan", body);
}

}  // namespace paraplan
