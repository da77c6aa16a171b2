// Budget arithmetic (search/budget.h): token counts with suffixes, time to train, GPU-hours and
// dollars, and how the step-time band moves each of them.
#include "search/budget.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/error.h"

namespace paraplan {
namespace {

StepResult StepOf(double seconds, int64_t global_batch) {
  StepResult r;
  r.step_time_s = seconds;
  r.plan.global_batch = global_batch;
  return r;
}

TEST_CASE("token counts take K, M, B and T suffixes", "[search][budget]") {
  CHECK(ParseTokenCount("15T", "--tokens") == 15e12);
  CHECK(ParseTokenCount("300B", "--tokens") == 300e9);
  CHECK(ParseTokenCount("2.5e12", "--tokens") == 2.5e12);
  CHECK(ParseTokenCount("40k", "--tokens") == 40e3);
  for (const char* bad : {"", "T", "15X", "-3T", "0", "1e400", "nan", "15 T", "1e30"}) {
    INFO(bad);
    CHECK_THROWS_WITH(ParseTokenCount(bad, "--tokens"), Catch::Contains("--tokens"));
  }
}

TEST_CASE("time to train, GPU-hours and dollars for a token budget", "[search][budget]") {
  BudgetRequest request;
  request.tokens = 1e12;
  request.price_per_gpu_hour = 2;
  const PlanBudget b = ComputeBudget(StepOf(10, 1024), 512, 4096, request);
  const double steps = std::ceil(1e12 / (1024.0 * 4096.0));
  CHECK(b.tokens_per_step == 1024.0 * 4096.0);
  CHECK(b.days.value == Approx(steps * 10 / 86400));
  CHECK(b.gpu_hours.value == Approx(steps * 10 / 3600 * 512));
  CHECK(b.usd.value == Approx(b.gpu_hours.value * 2));
  CHECK(b.days.low == b.days.value);  // no band without validation data
  request.band_low = 0.8;
  request.band_high = 1.25;
  const PlanBudget banded = ComputeBudget(StepOf(10, 1024), 512, 4096, request);
  CHECK(banded.step_s.low == Approx(8));
  CHECK(banded.step_s.high == Approx(12.5));
  CHECK(banded.usd.high == Approx(b.usd.value * 1.25));
  CHECK(banded.tokens.low == banded.tokens.high);  // the tokens are what was asked
}

TEST_CASE("a wall-clock budget fixes the cost and bands the tokens", "[search][budget]") {
  BudgetRequest request;
  request.train_days = 30;
  request.band_low = 0.8;
  request.band_high = 1.25;
  const PlanBudget b = ComputeBudget(StepOf(5, 2048), 1024, 8192, request);
  CHECK(b.gpu_hours.value == Approx(30 * 24 * 1024));
  CHECK(b.gpu_hours.low == b.gpu_hours.high);
  const double tokens = 30 * 86400 / 5.0 * 2048 * 8192;
  CHECK(b.tokens.value == Approx(tokens));
  CHECK(b.tokens.low == Approx(tokens / 1.25));  // a slower step trains fewer tokens
  CHECK(b.tokens.high == Approx(tokens / 0.8));
}

TEST_CASE("goodput stretches the time to train, a wall-clock budget trains fewer tokens",
          "[search][budget]") {
  BudgetRequest request;
  request.tokens = 1e12;
  request.price_per_gpu_hour = 2;
  StepResult r = StepOf(10, 1024);
  StageMemory m;
  m.weights_bytes = 20e9;  // 20 GB of state a GPU (dp 1): a 10 TB checkpoint on 512 GPUs
  m.optimizer_bytes = 0;
  r.memory = {m};
  const PlanBudget b = ComputeBudget(r, 512, 4096, request);
  REQUIRE(b.goodput.finishes);
  CHECK(b.goodput.goodput < 1);
  CHECK(b.checkpoint.total_bytes == Approx(20e9 * 512));
  CHECK(b.wall_days.value == Approx(b.days.value / b.goodput.goodput));
  CHECK(b.wall_gpu_hours.value == Approx(b.wall_days.value * 24 * 512));
  CHECK(b.wall_usd.value == Approx(b.wall_gpu_hours.value * 2));
  CHECK(b.interruptions == Approx(b.wall_days.value * 86400 / b.goodput.mtbf_s));
  BudgetRequest days;
  days.train_days = 30;
  const PlanBudget d = ComputeBudget(r, 512, 4096, days);
  CHECK(d.wall_days.value == 30);
  CHECK(d.wall_tokens.value == Approx(d.tokens.value * d.goodput.goodput));
}

TEST_CASE("plan --checkpoint takes sync or async", "[search][budget]") {
  CHECK(ParseCheckpointMode("async") == CheckpointMode::kAsync);
  CHECK_THROWS_WITH(ParseCheckpointMode("sometimes"), Catch::Contains("--checkpoint"));
}

}  // namespace
}  // namespace paraplan
