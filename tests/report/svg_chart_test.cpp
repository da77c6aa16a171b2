#include "report/svg_chart.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace paraplan;

namespace {

LineChart SampleChart() {
  LineChart c;
  c.title = "all-reduce <time> & overlap";
  c.x_label = "data-parallel size dp";
  c.y_label = "exposed DP communication (ms)";
  c.x_log = ShouldUseLogScale({8, 64, 4096});
  c.series = {{"overlap_grad_reduce=true", {8, 64, 4096}, {1.0, 1.1, 1.2}, {}},
              {"overlap_grad_reduce=false", {8, 64, 4096}, {5.0, std::nan(""), 5.6}, {}}};
  return c;
}

// Tags open and close in order (a small well-formedness check: no stray '<' in text).
bool Balanced(const std::string& svg) {
  std::vector<std::string> stack;
  for (size_t i = svg.find('<'); i != std::string::npos; i = svg.find('<', i + 1)) {
    const size_t end = svg.find('>', i);
    if (end == std::string::npos) return false;
    const std::string tag = svg.substr(i + 1, end - i - 1);
    if (tag.empty() || tag[0] == '?' || tag.back() == '/') continue;
    if (tag[0] == '/') {
      if (stack.empty() || stack.back() != tag.substr(1)) return false;
      stack.pop_back();
    } else {
      stack.push_back(tag.substr(0, tag.find(' ')));
    }
  }
  return stack.empty();
}

}  // namespace

TEST_CASE("SVG chart has axes, labels, a legend and escapes text", "[study][report]") {
  const std::string svg = RenderLineChartSvg(SampleChart());
  CHECK(svg.rfind("<?xml", 0) == 0);
  CHECK_THAT(svg, Catch::Contains("<svg xmlns=\"http://www.w3.org/2000/svg\""));
  CHECK_THAT(svg, Catch::EndsWith("</svg>\n"));
  CHECK_THAT(svg, Catch::Contains("data-parallel size dp"));
  CHECK_THAT(svg, Catch::Contains("exposed DP communication (ms)"));
  CHECK_THAT(svg, Catch::Contains("overlap_grad_reduce=true"));
  CHECK_THAT(svg, Catch::Contains("overlap_grad_reduce=false"));
  CHECK_THAT(svg, Catch::Contains("all-reduce &lt;time&gt; &amp; overlap"));
  CHECK_THAT(svg, Catch::Contains(">4096</text>"));  // log axis labels the data values
  CHECK(Balanced(svg));
  // The NaN point splits the second line into two polylines.
  size_t polylines = 0;
  for (size_t i = svg.find("<polyline"); i != std::string::npos; i = svg.find("<polyline", i + 1)) {
    ++polylines;
  }
  CHECK(polylines == 3);
  CHECK(RenderLineChartSvg(SampleChart()) == svg);
}

TEST_CASE("log scale and nice ticks", "[study][report]") {
  CHECK(ShouldUseLogScale({8, 16, 64}));
  CHECK_FALSE(ShouldUseLogScale({1, 2, 4}));
  CHECK_FALSE(ShouldUseLogScale({0, 10, 100}));
  const auto ticks = NiceTicks(0, 9.3);
  REQUIRE(ticks.size() >= 3);
  CHECK(ticks.front() == 0);
  CHECK(ticks.back() >= 9.3);
  CHECK(ticks[1] - ticks[0] == Approx(2.0));
  CHECK(XmlEscape("a<b>\"c\"&'") == "a&lt;b&gt;&quot;c&quot;&amp;&apos;");
}

TEST_CASE("categorical x axis labels each category", "[study][report]") {
  LineChart c;
  c.title = "schedules";
  c.x_label = "schedule";
  c.y_label = "bubble";
  c.x_categories = {"gpipe", "1f1b", "zero-bubble"};
  c.series = {{"m=8", {0, 1, 2}, {0.4, 0.3, 0.05}, {}}};
  const std::string svg = RenderLineChartSvg(c);
  CHECK_THAT(svg, Catch::Contains(">gpipe</text>"));
  CHECK_THAT(svg, Catch::Contains(">zero-bubble</text>"));
  CHECK(Balanced(svg));
}
