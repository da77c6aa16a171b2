// DIR/report.html of `paraplan study`: the chart inline, the results table, nothing to fetch.
#include "study/study_html.h"

#include <catch2/catch.hpp>

#include "config/study_metric.h"

namespace paraplan {
namespace {

TEST_CASE("the study report holds the chart and every point", "[study][html]") {
  StudyTable table;
  table.name = "bw";
  table.mode = "simulate";
  table.metric = "tokens_per_s_per_gpu";
  table.title = "Scale-out <bandwidth>";
  table.keys = {"cluster.network.scaleout.bandwidth_GBps"};
  table.key_dimension = {0};
  table.total_points = 2;
  for (int64_t i = 0; i < 2; ++i) {
    StudyRow row;
    row.index = i;
    row.values = {i == 0 ? "25" : "50"};
    row.status = "ok";
    row.has_result = true;
    row.metrics.assign(StudyMetricNames().size(), 1000.0 + 250.0 * static_cast<double>(i));
    row.plan = PlanColumnValues(ParallelPlan{});
    table.rows.push_back(row);
  }
  const std::string page = StudyHtml(table);
  CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(page.find("http") == std::string::npos);
  CHECK(page.find("<?xml") == std::string::npos);
  CHECK(page.find("<script") == std::string::npos);
  CHECK_THAT(page, Catch::Contains("<svg"));
  CHECK_THAT(page, Catch::Contains("Scale-out &lt;bandwidth&gt;"));
  CHECK_THAT(page, Catch::Contains("<table id=\"results\">"));
  CHECK_THAT(page, Catch::Contains("<td>1250</td>"));
  CHECK_THAT(page, Catch::Contains("<td>50</td>"));
}

}  // namespace
}  // namespace paraplan
