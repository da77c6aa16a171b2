#include "study/study_html.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "config/study_metric.h"
#include "core/format.h"
#include "report/html_page.h"
#include "report/html_svg.h"

namespace paraplan {

namespace {

// The standalone SVG file made inline: no XML declaration, no namespace URL (HTML5 knows svg).
std::string InlineSvg(std::string svg) {
  if (svg.rfind("<?xml", 0) == 0) svg.erase(0, svg.find('\n') + 1);
  const std::string ns = " xmlns=\"http://www.w3.org/2000/svg\"";
  for (size_t at = svg.find(ns); at != std::string::npos; at = svg.find(ns))
    svg.erase(at, ns.size());
  return svg;
}

std::string Th(const std::string& text) {
  return "<th>" + HtmlEscape(text) + "</th>";
}
std::string Td(const std::string& text) {
  return "<td>" + HtmlEscape(text) + "</td>";
}

// The columns the results table shows: metrics with a nonzero value at some point, and the plan
// knobs that vary; a knob with one value at every point is said once above the table (`same`),
// and one that repeats a swept key's column is left out (RepeatsSweptKey).
struct ResultColumns {
  std::vector<size_t> metrics;
  std::vector<size_t> plan;
  std::string same;
  std::string zero;  // metrics that are 0 at every point
};

// A plan value for a reader: dp_bucket_MB 0 is Megatron-LM's automatic size, not 0 MB.
std::string PlanValue(size_t column, const std::string& value) {
  return StudyPlanColumns()[column] == "dp_bucket_MB" && value == "0" ? "auto" : value;
}

ResultColumns ChooseColumns(const StudyTable& table) {
  ResultColumns c;
  for (size_t m = 0; m < StudyMetricNames().size(); ++m) {
    bool finite = false, nonzero = false;
    for (const StudyRow& row : table.rows) {
      if (m >= row.metrics.size() || !std::isfinite(row.metrics[m])) continue;
      finite = true;
      nonzero = nonzero || row.metrics[m] != 0;
    }
    if (nonzero) {
      c.metrics.push_back(m);
    } else if (finite) {
      c.zero += (c.zero.empty() ? "" : ", ") + MetricHeading(StudyMetricNames()[m]);
    }
  }
  for (size_t p = 0; p < StudyPlanColumns().size(); ++p) {
    std::vector<std::string> seen;
    for (const StudyRow& row : table.rows) {
      if (!row.has_result || p >= row.plan.size()) continue;
      if (std::find(seen.begin(), seen.end(), row.plan[p]) == seen.end()) {
        seen.push_back(row.plan[p]);
      }
    }
    if (seen.empty() || RepeatsSweptKey(table, p)) continue;
    if (seen.size() == 1) {
      c.same +=
          (c.same.empty() ? "" : ", ") + StudyPlanColumns()[p] + "=" + PlanValue(p, seen.front());
    } else {
      c.plan.push_back(p);
    }
  }
  return c;
}

std::string ResultsTable(const StudyTable& table) {
  const ResultColumns columns = ChooseColumns(table);
  const auto& metric_names = StudyMetricNames();
  std::string head = Th("point");
  for (const std::string& key : table.keys) head += Th(ShortKey(key));
  head += Th("status");
  for (size_t m : columns.metrics) head += Th(MetricHeading(metric_names[m]));
  for (size_t p : columns.plan) head += Th(StudyPlanColumns()[p]);
  std::string rows;
  for (const StudyRow& row : table.rows) {
    rows += "<tr>" + Td(std::to_string(row.index));
    for (const std::string& v : row.values) rows += Td(v);
    rows += Td(row.status + (row.reason.empty() ? "" : ": " + row.reason));
    for (size_t m : columns.metrics) {
      rows += Td(m < row.metrics.size() ? FormatMetric(metric_names[m], row.metrics[m]) : "-");
    }
    for (size_t p : columns.plan) rows += Td(p < row.plan.size() ? PlanValue(p, row.plan[p]) : "-");
    rows += "</tr>\n";
  }
  std::string same;
  if (!columns.same.empty()) {
    same = "<p>The plan at every point: " + HtmlEscape(columns.same) + ".</p>\n";
  }
  if (!columns.zero.empty()) {
    same += "<p>Zero at every point: " + HtmlEscape(columns.zero) + ".</p>\n";
  }
  return same + "<table id=\"results\"><thead><tr>" + head + "</tr></thead><tbody>\n" + rows +
         "</tbody></table>\n";
}

}  // namespace

std::string StudyHtml(const StudyTable& table) {
  const std::string title = "paraplan study: " + table.name;
  std::string body =
      "<h1>" + HtmlEscape(title) + "</h1>\n<p>" +
      HtmlEscape(table.title + " (" + table.mode + " mode, " + std::to_string(table.rows.size()) +
                 " of " + std::to_string(table.total_points) + " points)") +
      "</p>\n<h2>" + HtmlEscape(MetricHeading(table.metric)) + "</h2>\n" +
      InlineSvg(StudySvg(table)) + "<h2>Results</h2>\n" + ResultsTable(table);
  return HtmlPage(title, body);
}

}  // namespace paraplan
