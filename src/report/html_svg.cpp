#include "report/html_svg.h"

#include <algorithm>
#include <utility>

#include "core/format.h"
#include "core/units.h"
#include "plan/parallel_plan.h"

namespace paraplan {

namespace svg {

std::string Num(double v) {
  return FormatFixed(v, 1);
}

std::string Rect(double x, double y, double w, double h, const char* fill) {
  return "<rect x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" width=\"" + Num(std::max(w, 0.0)) +
         "\" height=\"" + Num(h) + "\" fill=\"" + fill + "\"/>";
}

std::string Text(double x, double y, const std::string& text, const char* anchor,
                 const char* fill) {
  return "<text x=\"" + Num(x) + "\" y=\"" + Num(y) + "\" text-anchor=\"" + anchor + "\"" +
         (fill ? std::string(" fill=\"") + fill + "\"" : "") + ">" + HtmlEscape(text) + "</text>";
}

std::string TitledRect(double x, double y, double w, double h, const char* fill,
                       const std::string& title, const std::string& label,
                       const std::string& short_label) {
  constexpr double kCharPx = 7;  // a 12 px sans-serif character, generously
  const auto fits = [&](const std::string& text) {
    return !text.empty() && h >= 12 && w >= kCharPx * static_cast<double>(text.size()) + 6;
  };
  std::string s = "<g><title>" + HtmlEscape(title) + "</title>" + Rect(x, y, w, h, fill);
  const std::string& shown = fits(label) ? label : short_label;
  if (fits(shown)) s += Text(x + w / 2, y + h / 2 + 4, shown, "middle", "#fff");
  return s + "</g>";
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

std::string Svg(const char* id, int height, const std::string& label, const std::string& body) {
  return std::string("<svg id=\"") + id + "\" role=\"img\" aria-label=\"" + HtmlEscape(label) +
         "\" width=\"" + std::to_string(kLabel + kWidth + kValue) + "\" height=\"" +
         std::to_string(height) + "\" font-size=\"12\">" + body + "</svg>\n";
}

std::string Duration(double seconds) {
  if (seconds >= 1) return FormatFixed(seconds, 3) + " s";
  if (seconds >= 1e-3) return FormatFixed(seconds * 1e3, 1) + " ms";
  return FormatFixed(seconds * 1e6, 0) + " us";
}

}  // namespace svg

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
  using namespace svg;
  static const std::vector<std::pair<const char*, const char*>> kParts = {
      {"weights", "#4e79a7"},
      {"gradients", "#f28e2b"},
      {"optimizer", "#e15759"},
      {"activations", "#59a14f"},
      {"other", "#9e9e9e"}};
  double top = r.memory_capacity_bytes;
  for (const StageMemory& m : r.memory) top = std::max(top, m.TotalBytes());
  if (top <= 0) top = 1;
  const double scale = kWidth / top;  // the total's label goes in the value column
  std::string body;
  double y = 10;
  for (const StageMemory& m : r.memory) {
    const double parts[] = {m.weights_bytes, m.grads_bytes, m.optimizer_bytes, m.activations_bytes,
                            m.other_bytes};
    const std::string stage = "stage " + std::to_string(m.stage);
    body += Text(kLabel - 8, y + 15, stage, "end");
    double x = kLabel;
    for (size_t i = 0; i < kParts.size(); ++i) {
      const std::string gib = FormatFixed(BytesToGiB(parts[i]), 1) + " GiB";
      std::string title = stage;
      title.append(" ").append(kParts[i].first).append(": ").append(gib);
      body += TitledRect(x, y, parts[i] * scale, kRow - 4, kParts[i].second, title, gib);
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
  return Svg("memory", static_cast<int>(y) + 44, "memory per pipeline stage", body);
}

}  // namespace paraplan
