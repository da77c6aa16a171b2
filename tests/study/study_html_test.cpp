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
  CHECK_THAT(page, Catch::Contains("<td>1,250</td>"));  // throughput, tokens/s per GPU
  CHECK_THAT(page, Catch::Contains("<td>50</td>"));
}

TEST_CASE(
    "the study report rounds with units, shows MFU in percent, no seq_len=0 and no "
    "repeated column",
    "[study][html]") {
  StudyTable table;
  table.name = "mb";
  table.mode = "simulate";
  table.metric = "mfu";
  table.keys = {"micro_batch"};
  table.key_dimension = {0};
  table.total_points = 2;
  for (int64_t i = 0; i < 2; ++i) {
    StudyRow row;
    row.index = i;
    row.values = {std::to_string(i + 1)};
    StepResult result;
    result.fits = true;
    result.step_time_s = 1.2345678901234567 * static_cast<double>(i + 1);
    result.mfu = 0.4123456789012345;
    result.plan.micro_batch = i + 1;
    result.plan.tp = 4 * (i + 1);
    SetRowResult(row, result, 8192);
    table.rows.push_back(row);
  }
  const std::string page = StudyHtml(table);
  CHECK_THAT(page, Catch::Contains("<th>step time (s)</th>"));
  CHECK_THAT(page, Catch::Contains("<td>1.235</td>"));
  CHECK_THAT(page, Catch::Contains("<th>MFU (%)</th>"));
  CHECK_THAT(page, Catch::Contains("<td>41.2</td>"));
  CHECK_THAT(page, !Catch::Contains("0.41234"));
  CHECK_THAT(page, !Catch::Contains("1.234567"));
  CHECK_THAT(page, Catch::Contains("seq_len=8192"));  // the same at both points: said once
  CHECK_THAT(page, !Catch::Contains("seq_len=0"));
  CHECK_THAT(page, Catch::Contains("dp_bucket_MB=auto"));  // 0 = automatic, not 0 MB
  CHECK_THAT(page, Catch::Contains("<th>tp</th>"));        // varies: a column
  // micro_batch is the swept key: one column, not a second copy among the plan's knobs.
  size_t count = 0;
  for (size_t at = page.find("<th>micro_batch</th>"); at != std::string::npos;
       at = page.find("<th>micro_batch</th>", at + 1)) {
    ++count;
  }
  CHECK(count == 1);
  CHECK_THAT(page, !Catch::Contains("<th>goodput (%)</th>"));  // no tokens: no budget columns
}

}  // namespace
}  // namespace paraplan
