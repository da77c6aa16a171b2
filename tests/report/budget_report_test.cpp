// The budget part of the reports (report/budget_report.h): banded numbers, the table's rows and
// the JSON fields, from a fixed plan.
#include "report/budget_report.h"

#include <catch2/catch.hpp>

namespace paraplan {
namespace {

TEST_CASE("banded numbers print the band only when there is one", "[report][budget]") {
  CHECK(FormatBanded({12.25, 12.25, 12.25}, 1) == "12.2");
  CHECK(FormatBanded({12.0, 10.5, 14.0}, 1) == "12.0 (10.5-14.0)");
}

TEST_CASE("budget table and JSON for a token budget with a price", "[report][budget]") {
  StepResult r;
  r.step_time_s = 10;
  r.plan.global_batch = 1000;
  BudgetRequest request;
  request.tokens = 8.64e11;  // 100,000 steps of 1000 x 8640 tokens: 10^6 s = 11.57 days
  request.price_per_gpu_hour = 2;
  request.band_low = 0.9;
  request.band_high = 1.2;
  PlanReportContext ctx;
  ctx.gpus = 100;
  ctx.model_seq_len = 8640;
  ctx.budget = &request;
  ctx.band_note = "test band";
  const std::string table = BudgetTable(ctx, {r});
  CHECK_THAT(table, Catch::Contains("Budget (864.00 B tokens, $2 per GPU-hour; band: test band)"));
  CHECK_THAT(table, Catch::Contains("11.6 (10.4-13.9) days"));
  CHECK_THAT(table, Catch::Contains("27,778 (25,000-33,333) GPU-h"));
  CHECK_THAT(table, Catch::Contains("$0.06 (0.05-0.07) M"));
  const std::string json = BudgetJson(ctx, r).Dump(0);
  CHECK_THAT(json, Catch::Contains("\"band_source\": \"test band\""));
  CHECK_THAT(json, Catch::Contains("\"usd\""));
}

}  // namespace
}  // namespace paraplan
