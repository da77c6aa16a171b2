// The HTML report's content: a well-formed page (every element closed in order), nothing to
// fetch, the plans' numbers in its tables, the memory bars and timeline SVGs, escaped names.
#include <catch2/catch.hpp>
#include <regex>
#include <set>
#include <sstream>
#include <vector>

#include "core/units.h"
#include "report/html_svg.h"
#include "report/plan_reporter.h"

namespace paraplan {
namespace {

StepResult HtmlRow(double step_s, double memory_GiB, int64_t pp) {
  StepResult r;
  r.plan.tp = 8;
  r.plan.pp = pp;
  r.plan.dp = 64 / (8 * pp);
  r.plan.global_batch = 256;
  r.fits = true;
  r.step_time_s = step_s;
  r.tokens_per_s_per_gpu = 1234.4;
  r.mfu = 0.4125;
  r.peak_memory_bytes = GiBToBytes(memory_GiB);
  r.memory_capacity_bytes = GiBToBytes(80);
  for (int64_t s = 0; s < pp; ++s) {
    StageMemory m;
    m.stage = s;
    m.weights_bytes = GiBToBytes(memory_GiB / 2);
    m.activations_bytes = GiBToBytes(memory_GiB / 2);
    r.memory.push_back(m);
  }
  r.notes = {"dominant cost: compute"};
  return r;
}

// Tags in order; void elements (meta) need no end tag. Fails on a mismatched end tag.
bool WellFormed(const std::string& page, std::string* why) {
  static const std::set<std::string> kVoid = {"meta", "rect", "line"};
  std::vector<std::string> open;
  const std::regex tag("<(/?)([a-zA-Z][a-zA-Z0-9]*)[^>]*?(/?)>");
  for (auto it = std::sregex_iterator(page.begin(), page.end(), tag); it != std::sregex_iterator();
       ++it) {
    const std::string name = (*it)[2];
    if ((*it)[3] == "/" || (kVoid.count(name) && (*it)[1] != "/")) continue;
    if ((*it)[1] == "/") {
      if (open.empty() || open.back() != name) {
        *why = "</" + name + "> closes " + (open.empty() ? "nothing" : "<" + open.back() + ">");
        return false;
      }
      open.pop_back();
    } else {
      open.push_back(name);
    }
  }
  if (!open.empty()) *why = "<" + open.back() + "> never closed";
  return open.empty();
}

std::string RenderHtml(const SearchResult& result, const std::vector<TimelineEvent>* timeline) {
  PlanReportContext ctx;
  ctx.model_name = "llama<3>&70b";
  ctx.cluster_name = "dgx-h100";
  ctx.gpu_name = "H100";
  ctx.gpus = 64;
  ctx.model_seq_len = 8192;
  ctx.timeline = timeline;
  std::ostringstream out;
  MakePlanReporter("html", out)->Report(ctx, result);
  return out.str();
}

TEST_CASE("the HTML report is one well-formed page with the plans' numbers", "[report][html]") {
  SearchResult result;
  result.plans = {HtmlRow(10.5, 61.25, 4), HtmlRow(11.0, 41.5, 8)};
  result.pareto = result.plans;
  result.searched = 1000;
  result.feasible = 40;
  std::vector<TimelineEvent> timeline;
  for (int64_t s = 0; s < 4; ++s) {
    timeline.push_back({s, "compute", "F0", 0, 0, s * 1000, s * 1000 + 900});
    timeline.push_back({s, "compute", "B0", 0, 0, 8000 - s * 1000, 9000 - s * 1000});
  }
  const std::string page = RenderHtml(result, &timeline);
  std::string why;
  CHECK(WellFormed(page, &why));
  INFO(why);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("http") == std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
  CHECK(page.find("<link") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("llama&lt;3&gt;&amp;70b"));
  CHECK_THAT(page, Catch::Contains("<td data-key=\"step_time_s\">10.500</td>"));
  CHECK_THAT(page, Catch::Contains("<td data-key=\"step_time_s\">11.000</td>"));
  CHECK_THAT(page, Catch::Contains("<td data-key=\"memory_GiB\">61.2</td>"));
  CHECK_THAT(page, Catch::Contains("<td data-key=\"mfu_pct\">41.2</td>"));
  CHECK_THAT(page, Catch::Contains("stage 3 compute"));
  CHECK_THAT(page, Catch::Contains("80.0 GiB capacity"));
  CHECK_THAT(page, Catch::Contains("18.8 GiB per GPU to spare"));
  CHECK_THAT(page, Catch::Contains("dominant cost: compute"));
}

size_t CountIn(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST_CASE("the HTML memory bars print whole labels with units, inside the figure",
          "[report][html]") {
  SearchResult result;
  result.plans = {HtmlRow(10.5, 79.9, 2)};  // a bar at the capacity line, as issue 35 found cut
  const std::string svg = MemoryBarsSvg(result.plans.front());
  CHECK_THAT(svg, Catch::Contains(">79.9 GiB</text>"));
  CHECK_THAT(svg, Catch::Contains("<title>stage 0 weights: 40.0 GiB</title>"));
  CHECK_THAT(svg, Catch::Contains(">40.0 GiB</text>"));  // a wide segment prints its value
  // The total's label starts at most 4 px right of the capacity line, with the value column
  // (90 px) left for it inside the SVG's width.
  const std::smatch width = [&] {
    std::smatch m;
    std::regex_search(svg, m, std::regex("width=\"([0-9]+)\""));
    return m;
  }();
  REQUIRE(width.size() == 2);
  std::smatch label;
  REQUIRE(std::regex_search(svg, label, std::regex("<text x=\"([0-9.]+)\"[^>]*>79.9 GiB<")));
  CHECK(std::stod(label[1]) + 60 <= std::stod(width[1]));
}

TEST_CASE("the HTML timeline boxes carry their times, a deep pipeline is aggregated and says so",
          "[report][html]") {
  std::vector<TimelineEvent> small;
  small.push_back({0, "compute", "F0", 0, 0, 0, 400'000'000});
  small.push_back({0, "compute", "B0", 0, 0, 400'000'000, 1'200'000'000});
  const std::string few = TimelineSvg(small);
  CHECK_THAT(few, Catch::Contains("<title>stage 0 compute: B0, 0.400-1.200 s (800.0 ms)</title>"));
  CHECK_THAT(few, Catch::Contains(">B0 800.0 ms</text>"));
  CHECK_THAT(few, Catch::Contains("100% busy"));
  CHECK_THAT(few, Catch::Contains("One box per event"));

  // 64 stages x 5 virtual stages x 64 micro-batches, forward and backward: 40,960 events.
  std::vector<TimelineEvent> deep;
  for (int64_t s = 0; s < 64; ++s) {
    for (int64_t i = 0; i < 320; ++i) {
      const Nanos t = (s + 2 * i) * 1'000'000;
      deep.push_back({s, "compute", "F" + std::to_string(i), i, 0, t, t + 900'000});
      deep.push_back({s, "compute", "B" + std::to_string(i), i, 0, t + 1'000'000, t + 1'900'000});
    }
  }
  const std::string many = TimelineSvg(deep);
  CHECK_THAT(many,
             Catch::Contains("Showing 8 of 64 pipeline stages (0, 9, 18, 27, 36, 45, 54, 63)"));
  CHECK_THAT(many, Catch::Contains("5,120 events aggregated into 120 time bins"));  // 8 x 640
  CHECK_THAT(many, Catch::Contains("stage 63 compute"));
  CHECK_THAT(many, !Catch::Contains("stage 1 compute"));
  CHECK(CountIn(many, "<rect") <= 8 * kTimelineBins * 2 + 16);
  CHECK(CountIn(many, "<title>") <= 8 * kTimelineBins);
  CHECK_THAT(many, Catch::Contains("% busy (forward "));
}

TEST_CASE("table, JSON and HTML say where the Pareto front was cut", "[report][html]") {
  SearchResult result;
  result.plans = {HtmlRow(10.5, 61.25, 4), HtmlRow(11.0, 41.5, 8)};
  result.pareto = result.plans;
  result.pareto_total = 54;
  result.pareto_cut = 52;
  result.pareto_cut_step_s = 21.0;
  const std::string note = "52 points past 21.000 s per step (2x the fastest) not shown";
  CHECK_THAT(RenderHtml(result, nullptr), Catch::Contains("<p id=\"pareto_cut\">" + note));
  PlanReportContext ctx;
  ctx.model_name = "m";
  ctx.gpus = 64;
  ctx.model_seq_len = 8192;
  std::ostringstream table;
  MakePlanReporter("table", table)->Report(ctx, result);
  CHECK_THAT(table.str(), Catch::Contains("; " + note + " (--pareto-max-slowdown)):"));
  std::ostringstream json;
  MakePlanReporter("json", json)->Report(ctx, result);
  CHECK_THAT(json.str(), Catch::Contains("\"pareto_cut\": 52"));
  CHECK_THAT(json.str(), Catch::Contains("\"pareto_cut_step_s\": 21"));
  result.pareto_cut = 0;  // a front within the range: no note
  CHECK_THAT(RenderHtml(result, nullptr), !Catch::Contains("pareto_cut"));
}

TEST_CASE("the HTML report of a search where nothing fits gives the advice", "[report][html]") {
  SearchResult result;
  result.searched = 10;
  result.why_nothing_fits = "nothing fits: activations <too large>\n";
  result.closest = {HtmlRow(9.0, 95.0, 2)};
  const std::string page = RenderHtml(result, nullptr);
  std::string why;
  CHECK(WellFormed(page, &why));
  INFO(why);
  CHECK_THAT(page, Catch::Contains("activations &lt;too large&gt;"));
  CHECK_THAT(page, Catch::Contains("<table id=\"closest\">"));
  CHECK_THAT(page, !Catch::Contains("<table id=\"plans\">"));
}

}  // namespace
}  // namespace paraplan
