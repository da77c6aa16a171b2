// A line chart as a standalone SVG document: title, axes with units and tick labels, one
// polyline (with point markers) per series, and a legend. Used by `paraplan study`.
// Deterministic: the same chart always gives the same bytes.
#pragma once

#include <string>
#include <vector>

namespace paraplan {

// One line. x and y have the same length; a NaN y leaves a gap (the point is not drawn).
// hollow[i] (when given) draws point i as an open circle (e.g. "does not fit in memory").
struct ChartSeries {
  std::string label;
  std::vector<double> x;
  std::vector<double> y;
  std::vector<bool> hollow;
};

struct LineChart {
  std::string title;
  std::string subtitle;  // optional second line under the title
  std::string x_label;   // with its unit, e.g. "data-parallel size dp (GPUs)"
  std::string y_label;   // with its unit, e.g. "step time (s)"
  // Non-empty: a categorical x axis; series x values are indices into this list.
  std::vector<std::string> x_categories;
  bool x_log = false;  // logarithmic x axis (numeric x only; every x must be > 0)
  std::vector<ChartSeries> series;
  std::string hollow_label;  // legend text for hollow markers; empty = no legend entry
  int width_px = 900;
  int height_px = 540;
};

// True when the values are all > 0 and span at least `min_ratio` (max / min ≥ 8 by default).
bool ShouldUseLogScale(const std::vector<double>& values, double min_ratio = 8.0);

// "Nice" linear ticks covering [lo, hi]: about `target` ticks at 1, 2 or 5 × 10^k.
std::vector<double> NiceTicks(double lo, double hi, int target = 6);

// Text escaped for XML character data and attribute values.
std::string XmlEscape(const std::string& text);

// The whole SVG document (starts with an XML declaration, ends with "</svg>\n").
std::string RenderLineChartSvg(const LineChart& chart);

}  // namespace paraplan
