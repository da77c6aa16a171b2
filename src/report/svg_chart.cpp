#include "report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <set>

#include "core/format.h"

namespace paraplan {

namespace {

constexpr const char* kPalette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                                    "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
constexpr size_t kPaletteSize = sizeof(kPalette) / sizeof(kPalette[0]);
constexpr const char* kDashes[] = {"", "6 3", "2 3", "8 3 2 3"};
constexpr double kCharWidthPx = 7.0;  // rough width of one 12 px sans-serif character
constexpr size_t kMaxDataTicks = 12;

// The drawing area and how data maps onto it.
struct Frame {
  double left = 0, right = 0, top = 0, bottom = 0;
  double x_lo = 0, x_hi = 1, y_lo = 0, y_hi = 1;
  bool x_log = false;

  double Px(double x) const {
    const double v = x_log ? std::log10(x) : x;
    const double lo = x_log ? std::log10(x_lo) : x_lo;
    const double hi = x_log ? std::log10(x_hi) : x_hi;
    return left + (v - lo) / (hi - lo) * (right - left);
  }
  double Py(double y) const { return bottom - (y - y_lo) / (y_hi - y_lo) * (bottom - top); }
};

std::string Px(double v) {
  return FormatFixed(v, 1);
}

// Tick label text: as many decimals as the tick step needs.
std::string TickLabel(double value, double step) {
  if (value == 0.0) return "0";
  const double magnitude = std::fabs(value);
  if (magnitude >= 1e6 || magnitude < 1e-3) {
    std::string text = FormatShortest(value);
    return text;
  }
  const int digits = step >= 1.0 ? 0 : static_cast<int>(std::ceil(-std::log10(step) - 1e-9));
  return FormatFixed(value, std::clamp(digits, 0, 6));
}

std::vector<double> AllX(const LineChart& chart) {
  std::set<double> xs;
  for (const auto& s : chart.series) {
    for (double x : s.x) {
      if (std::isfinite(x)) xs.insert(x);
    }
  }
  return {xs.begin(), xs.end()};
}

// Tick positions for a log axis when there are too many data values to label each one.
std::vector<double> LogTicks(double lo, double hi) {
  const double base = hi / lo <= 4096.0 ? 2.0 : 10.0;
  std::vector<double> ticks;
  // A geometric series of tick values (not a loop counter): each tick is the previous one times
  // the base, exact for the powers of 2 and 10 a chart shows.
  double t = std::pow(base, std::ceil(std::log(lo) / std::log(base) - 1e-9));
  while (t <= hi * (1 + 1e-9)) {
    ticks.push_back(t);
    t *= base;
  }
  return ticks;
}

void XAxisRange(const LineChart& chart, Frame& f, std::vector<double>& ticks,
                std::vector<std::string>& labels) {
  if (!chart.x_categories.empty()) {
    const double n = static_cast<double>(chart.x_categories.size());
    f.x_lo = -0.5;
    f.x_hi = n - 0.5;
    for (size_t i = 0; i < chart.x_categories.size(); ++i) {
      ticks.push_back(static_cast<double>(i));
      labels.push_back(chart.x_categories[i]);
    }
    return;
  }
  std::vector<double> xs = AllX(chart);
  if (xs.empty()) xs = {f.x_log ? 1.0 : 0.0};
  const double lo = xs.front(), hi = xs.back();
  if (f.x_log) {
    const double pad = std::pow(hi / lo, 0.04);
    f.x_lo = lo / pad;
    f.x_hi = hi * pad;
    ticks = xs.size() <= kMaxDataTicks ? xs : LogTicks(lo, hi);
    for (double t : ticks) labels.push_back(FormatShortest(t));
    return;
  }
  const double span = hi > lo ? hi - lo : 1.0;
  f.x_lo = lo - 0.04 * span;
  f.x_hi = hi + 0.04 * span;
  if (xs.size() <= kMaxDataTicks) {
    ticks = xs;
    for (double t : ticks) labels.push_back(FormatShortest(t));
    return;
  }
  ticks = NiceTicks(lo, hi);
  const double step = ticks.size() > 1 ? ticks[1] - ticks[0] : 1.0;
  for (double t : ticks) labels.push_back(TickLabel(t, step));
}

std::vector<double> YAxisRange(const LineChart& chart, Frame& f) {
  double lo = 0.0, hi = 0.0;
  bool any = false;
  for (const auto& s : chart.series) {
    for (double y : s.y) {
      if (!std::isfinite(y)) continue;
      lo = any ? std::min(lo, y) : std::min(0.0, y);
      hi = any ? std::max(hi, y) : y;
      any = true;
    }
  }
  if (hi <= lo) hi = lo + 1.0;
  std::vector<double> ticks = NiceTicks(lo, hi);
  f.y_lo = ticks.front();
  f.y_hi = ticks.back();
  return ticks;
}

size_t LegendChars(const LineChart& chart) {
  size_t chars = 0;
  for (const auto& s : chart.series) chars = std::max(chars, s.label.size());
  chars = std::max(chars, chart.hollow_label.size());
  return chars;
}

void AppendText(std::string& out, double x, double y, const std::string& anchor,
                const std::string& extra, const std::string& text) {
  out += "<text x=\"" + Px(x) + "\" y=\"" + Px(y) + "\" text-anchor=\"" + anchor + "\"" + extra +
         ">" + XmlEscape(text) + "</text>\n";
}

void AppendAxes(std::string& out, const Frame& f, const LineChart& chart,
                const std::vector<double>& x_ticks, const std::vector<std::string>& x_labels,
                const std::vector<double>& y_ticks) {
  out += "<g class=\"grid\" stroke=\"#e0e0e0\" stroke-width=\"1\">\n";
  for (double t : y_ticks) {
    out += "<line x1=\"" + Px(f.left) + "\" y1=\"" + Px(f.Py(t)) + "\" x2=\"" + Px(f.right) +
           "\" y2=\"" + Px(f.Py(t)) + "\"/>\n";
  }
  for (double t : x_ticks) {
    out += "<line x1=\"" + Px(f.Px(t)) + "\" y1=\"" + Px(f.top) + "\" x2=\"" + Px(f.Px(t)) +
           "\" y2=\"" + Px(f.bottom) + "\"/>\n";
  }
  out += "</g>\n";
  out += "<rect x=\"" + Px(f.left) + "\" y=\"" + Px(f.top) + "\" width=\"" + Px(f.right - f.left) +
         "\" height=\"" + Px(f.bottom - f.top) +
         "\" fill=\"none\" stroke=\"#333333\" stroke-width=\"1\"/>\n";
  out += "<g class=\"x-axis\" font-size=\"12\" fill=\"#333333\">\n";
  for (size_t i = 0; i < x_ticks.size(); ++i) {
    AppendText(out, f.Px(x_ticks[i]), f.bottom + 18, "middle", "", x_labels[i]);
  }
  AppendText(out, (f.left + f.right) / 2, f.bottom + 42, "middle", " font-size=\"13\"",
             chart.x_label);
  out += "</g>\n<g class=\"y-axis\" font-size=\"12\" fill=\"#333333\">\n";
  const double step = y_ticks.size() > 1 ? y_ticks[1] - y_ticks[0] : 1.0;
  for (double t : y_ticks) AppendText(out, f.left - 8, f.Py(t) + 4, "end", "", TickLabel(t, step));
  const double cy = (f.top + f.bottom) / 2;
  AppendText(out, 18, cy, "middle", " font-size=\"13\" transform=\"rotate(-90 18 " + Px(cy) + ")\"",
             chart.y_label);
  out += "</g>\n";
}

std::string SeriesStyle(size_t i) {
  std::string style = "stroke=\"" + std::string(kPalette[i % kPaletteSize]) + "\"";
  const char* dash = kDashes[(i / kPaletteSize) % (sizeof(kDashes) / sizeof(kDashes[0]))];
  if (*dash != '\0') style += " stroke-dasharray=\"" + std::string(dash) + "\"";
  return style;
}

void AppendSeries(std::string& out, const Frame& f, const ChartSeries& s, size_t index) {
  const std::string color = kPalette[index % kPaletteSize];
  out += "<g class=\"series\" fill=\"none\" stroke-width=\"2\" " + SeriesStyle(index) + ">\n";
  std::string points;
  auto flush = [&] {
    if (!points.empty()) out += "<polyline points=\"" + points + "\"/>\n";
    points.clear();
  };
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i]) || (f.x_log && s.x[i] <= 0)) {
      flush();
      continue;
    }
    if (!points.empty()) points += ' ';
    points += Px(f.Px(s.x[i])) + "," + Px(f.Py(s.y[i]));
  }
  flush();
  out += "</g>\n<g class=\"markers\" fill=\"" + color + "\">\n";
  for (size_t i = 0; i < s.x.size() && i < s.y.size(); ++i) {
    if (!std::isfinite(s.y[i]) || !std::isfinite(s.x[i]) || (f.x_log && s.x[i] <= 0)) continue;
    const bool hollow = i < s.hollow.size() && s.hollow[i];
    out += "<circle cx=\"" + Px(f.Px(s.x[i])) + "\" cy=\"" + Px(f.Py(s.y[i])) +
           (hollow ? "\" r=\"4\" fill=\"#ffffff\" stroke=\"" + color + "\" stroke-width=\"1.5\"/>\n"
                   : "\" r=\"3\"/>\n");
  }
  out += "</g>\n";
}

void AppendLegend(std::string& out, const LineChart& chart, double x, double y) {
  out += "<g class=\"legend\" font-size=\"12\" fill=\"#333333\">\n";
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const double row = y + 20.0 * static_cast<double>(i);
    out += "<line x1=\"" + Px(x) + "\" y1=\"" + Px(row) + "\" x2=\"" + Px(x + 24) + "\" y2=\"" +
           Px(row) + "\" stroke-width=\"2\" " + SeriesStyle(i) + "/>\n";
    out += "<circle cx=\"" + Px(x + 12) + "\" cy=\"" + Px(row) + "\" r=\"3\" fill=\"" +
           kPalette[i % kPaletteSize] + "\"/>\n";
    AppendText(out, x + 30, row + 4, "start", "", chart.series[i].label);
  }
  if (!chart.hollow_label.empty()) {
    const double row = y + 20.0 * static_cast<double>(chart.series.size());
    out += "<circle cx=\"" + Px(x + 12) + "\" cy=\"" + Px(row) +
           "\" r=\"4\" fill=\"#ffffff\" stroke=\"#333333\" stroke-width=\"1.5\"/>\n";
    AppendText(out, x + 30, row + 4, "start", "", chart.hollow_label);
  }
  out += "</g>\n";
}

}  // namespace

bool ShouldUseLogScale(const std::vector<double>& values, double min_ratio) {
  if (values.empty()) return false;
  double lo = values.front(), hi = values.front();
  for (double v : values) {
    if (!std::isfinite(v) || v <= 0) return false;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  return hi / lo >= min_ratio;
}

// Heckbert, "Nice numbers for graph labels", Graphics Gems (1990).
std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!(hi > lo)) hi = lo + 1.0;
  const double raw = (hi - lo) / std::max(1, target - 1);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / magnitude;
  const double nice = f <= 1.0 ? 1.0 : f <= 2.0 ? 2.0 : f <= 5.0 ? 5.0 : 10.0;
  const double step = nice * magnitude;
  const double first = std::floor(lo / step + 1e-9);
  const double last = std::ceil(hi / step - 1e-9);
  std::vector<double> ticks;
  // first and last are whole numbers, so first + k is exact; a NaN count gives no ticks.
  const double count = last - first;
  for (int64_t k = 0; static_cast<double>(k) <= count; ++k) {
    const double i = first + static_cast<double>(k);
    const double t = i * step;
    ticks.push_back(std::fabs(t) < step * 1e-9 ? 0.0 : t);
  }
  if (ticks.size() < 2) ticks.push_back(ticks.back() + step);
  return ticks;
}

std::string XmlEscape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
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
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

std::string RenderLineChartSvg(const LineChart& chart) {
  const double width = chart.width_px;
  const double legend_px =
      chart.series.empty() ? 0.0 : 50.0 + kCharWidthPx * static_cast<double>(LegendChars(chart));
  const double total_width = width + legend_px;
  const double height = chart.height_px;
  Frame f;
  f.left = 80;
  f.right = width - 20;
  f.top = chart.subtitle.empty() ? 50 : 68;
  f.bottom = height - 60;
  f.x_log = chart.x_log && chart.x_categories.empty();
  std::vector<double> x_ticks;
  std::vector<std::string> x_labels;
  XAxisRange(chart, f, x_ticks, x_labels);
  const std::vector<double> y_ticks = YAxisRange(chart, f);

  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + Px(total_width) + "\" height=\"" +
         Px(height) + "\" viewBox=\"0 0 " + Px(total_width) + " " + Px(height) +
         "\" font-family=\"Helvetica, Arial, sans-serif\">\n";
  out += "<title>" + XmlEscape(chart.title) + "</title>\n";
  out += "<rect x=\"0\" y=\"0\" width=\"" + Px(total_width) + "\" height=\"" + Px(height) +
         "\" fill=\"#ffffff\"/>\n";
  AppendText(out, total_width / 2, 26, "middle", " font-size=\"16\" font-weight=\"bold\"",
             chart.title);
  if (!chart.subtitle.empty()) {
    AppendText(out, total_width / 2, 46, "middle", " font-size=\"12\" fill=\"#555555\"",
               chart.subtitle);
  }
  AppendAxes(out, f, chart, x_ticks, x_labels, y_ticks);
  for (size_t i = 0; i < chart.series.size(); ++i) AppendSeries(out, f, chart.series[i], i);
  if (!chart.series.empty()) AppendLegend(out, chart, width + 10, f.top + 10);
  out += "</svg>\n";
  return out;
}

}  // namespace paraplan
