// GPU-count sweep reports (report/sweep_report.h): scaling efficiency against the smallest count
// with a plan, a row per count, "nothing fits" where a count has none.
#include "report/sweep_report.h"

#include <catch2/catch.hpp>
#include <sstream>

namespace paraplan {
namespace {

SweepPoint Point(int64_t gpus, double tokens_per_s_per_gpu) {
  SweepPoint p;
  p.gpus = gpus;
  if (tokens_per_s_per_gpu > 0) {
    StepResult r;
    r.plan.dp = gpus;
    r.plan.global_batch = 1024;
    r.step_time_s = 1024.0 * 4096 / (tokens_per_s_per_gpu * static_cast<double>(gpus));
    r.tokens_per_s_per_gpu = tokens_per_s_per_gpu;
    p.result.plans.push_back(r);
  } else {
    p.result.why_nothing_fits = "no plan fits\n";
  }
  return p;
}

TEST_CASE("sweep: scaling against the smallest count that has a plan", "[report][sweep]") {
  const std::vector<SweepPoint> points = {Point(64, 0), Point(128, 1000), Point(256, 900)};
  CHECK(ScalingEfficiency(points[1], points[2]) == Approx(0.9));
  CHECK(ScalingEfficiency(points[0], points[2]) == 0);
  PlanReportContext ctx;
  ctx.model_seq_len = 4096;
  std::ostringstream table, json;
  WriteSweepTable(table, ctx, points);
  CHECK_THAT(table.str(), Catch::Contains("nothing fits"));
  CHECK_THAT(table.str(), Catch::Contains("90.0 %"));
  CHECK_THAT(table.str(), Catch::Contains("relative to 128 GPUs"));
  WriteSweepJson(json, ctx, points);
  CHECK_THAT(json.str(), Catch::Contains("\"scaling_base_gpus\": 128"));
  CHECK_THAT(json.str(), Catch::Contains("\"why_nothing_fits\""));
}

}  // namespace
}  // namespace paraplan
