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
  // No state to checkpoint (no memory breakdown) and 100 GPUs: goodput 99.98 %, so the
  // wall-clock figures round as the failure-free ones.
  CHECK_THAT(table, Catch::Contains("11.6 (10.4-13.9) days"));
  CHECK_THAT(table, Catch::Contains("27,782 (25,004-33,339) GPU-h"));
  CHECK_THAT(table, Catch::Contains("$0.06 (0.05-0.07) M"));
  CHECK_THAT(table, Catch::Contains("100.0 %"));
  CHECK_THAT(table, Catch::Contains("Goodput: 0.474 interruptions per 1000 GPU-days"));
  CHECK_THAT(table, Catch::Contains("plans are ranked by it"));
  const std::string json = BudgetJson(ctx, r).Dump(0);
  CHECK_THAT(json, Catch::Contains("\"band_source\": \"test band\""));
  CHECK_THAT(json, Catch::Contains("\"usd\""));
  const std::string compact = BudgetJson(ctx, r).Dump(-1);
  CHECK_THAT(compact, Catch::Contains("\"gpu_hours\":{\"value\":27777.7"));  // failure-free
  CHECK_THAT(compact, Catch::Contains("\"goodput\":{\"goodput\":0.9998"));
  CHECK_THAT(json, Catch::Contains("\"checkpoint_interval_source\": \"young_daly\""));
  CHECK_THAT(json, Catch::Contains("\"wall_days\""));
  CHECK_THAT(json, !Catch::Contains("\"energy\""));  // no power in the request: no energy
}

TEST_CASE("budget table: energy with a price per kWh, and a run that never finishes",
          "[report][budget]") {
  StepResult r;
  r.step_time_s = 10;
  r.time.compute_s = 10;
  r.plan.global_batch = 1000;
  BudgetRequest request;
  request.tokens = 8.64e11;
  request.price_per_kwh = 0.1;
  request.power.gpu_tdp_W = 1000;
  request.power.pue = 1;
  PlanReportContext ctx;
  ctx.gpus = 100;
  ctx.model_seq_len = 8640;
  ctx.budget = &request;
  // 100 GPUs at 1 kW for 11.57 days (goodput 99.98 %): 27.8 MWh, $2,778.
  const std::string table = BudgetTable(ctx, {r});
  CHECK_THAT(table, Catch::Contains("28 MWh"));
  CHECK_THAT(table, Catch::Contains("$0.1 per kWh"));
  CHECK_THAT(BudgetJson(ctx, r).Dump(-1), Catch::Contains("\"energy\":{\"gpu_utilisation\":1"));
  request.reliability.failures_per_gpu_day = 1;
  ctx.gpus = 100000;
  CHECK_THAT(BudgetTable(ctx, {r}), Catch::Contains("never finishes"));
  CHECK_THAT(BudgetTable(ctx, {r}), Catch::Contains(" - GPU-h"));
  CHECK_THAT(BudgetJson(ctx, r).Dump(-1), Catch::Contains("\"wall_days\":{\"value\":null"));
}

}  // namespace
}  // namespace paraplan
