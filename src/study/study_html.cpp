#include "study/study_html.h"

#include <cmath>

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

std::string ResultsTable(const StudyTable& table) {
  std::string head = Th("point");
  for (const std::string& key : table.keys) head += Th(key);
  head += Th("status");
  for (const std::string& metric : StudyMetricNames()) head += Th(metric);
  for (const std::string& column : StudyPlanColumns()) head += Th(column);
  std::string rows;
  for (const StudyRow& row : table.rows) {
    rows += "<tr>" + Td(std::to_string(row.index));
    for (const std::string& v : row.values) rows += Td(v);
    rows += Td(row.status + (row.reason.empty() ? "" : ": " + row.reason));
    for (double m : row.metrics) rows += Td(std::isfinite(m) ? FormatShortest(m) : "-");
    for (size_t i = 0; i < StudyPlanColumns().size(); ++i) {
      rows += Td(i < row.plan.size() ? row.plan[i] : "-");
    }
    rows += "</tr>\n";
  }
  return "<table id=\"results\"><thead><tr>" + head + "</tr></thead><tbody>\n" + rows +
         "</tbody></table>\n";
}

}  // namespace

std::string StudyHtml(const StudyTable& table) {
  const std::string title = "paraplan study: " + table.name;
  std::string body =
      "<h1>" + HtmlEscape(title) + "</h1>\n<p>" +
      HtmlEscape(table.title + " (" + table.mode + " mode, " + std::to_string(table.rows.size()) +
                 " of " + std::to_string(table.total_points) + " points)") +
      "</p>\n<h2>" + HtmlEscape(table.metric) + "</h2>\n" + InlineSvg(StudySvg(table)) +
      "<h2>Results</h2>\n" + ResultsTable(table);
  return HtmlPage(title, body);
}

}  // namespace paraplan
