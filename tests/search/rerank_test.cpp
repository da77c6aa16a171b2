// Re-ranking after the search (search/rerank.h): by wall-clock time to train with --tokens, and
// by memory headroom, keeping the fold counts with their plans.
#include "search/rerank.h"

#include <catch2/catch.hpp>

#include "core/units.h"

namespace paraplan {
namespace {

StepResult RerankRow(double step_s, double peak_GiB, double state_bytes = 1e9) {
  StepResult r;
  r.step_time_s = step_s;
  r.plan.global_batch = 1024;
  r.peak_memory_bytes = peak_GiB * kGiB;
  r.memory_capacity_bytes = 80 * kGiB;
  StageMemory m;
  m.weights_bytes = state_bytes;
  r.memory = {m};
  return r;
}

TEST_CASE("plan --tokens ranks by wall-clock time: a big checkpoint can lose its lead",
          "[search][budget][goodput]") {
  BudgetRequest request;
  request.tokens = 1e12;
  // 200 GB of state a GPU on 4096 GPUs: a 410 s sync write at every checkpoint (goodput 85 %)
  // against 2 s (98 %): the 0.5 % faster step loses.
  SearchResult result;
  result.plans = {RerankRow(10, 60, 200e9), RerankRow(10.05, 60)};
  result.plans_folded = {3, 7};
  RankByWallClock(result, 4096, 4096, request);
  CHECK(result.plans.front().step_time_s == 10.05);
  CHECK(result.plans_folded.front() == 7);  // the fold count moves with its plan
  BudgetRequest days;                       // --train-days: the search's order stays
  days.train_days = 10;
  result.plans = {RerankRow(10, 60, 200e9), RerankRow(10.05, 60)};
  RankByWallClock(result, 4096, 4096, days);
  CHECK(result.plans.front().step_time_s == 10);
}

TEST_CASE("plan --headroom ranks plans inside it first, equal steps put less memory first",
          "[search][headroom]") {
  CHECK(InsideHeadroom(RerankRow(1, 71.2), 11));  // 89 % of 80 GiB
  CHECK_FALSE(InsideHeadroom(RerankRow(1, 79.9), 11));
  CHECK(InsideHeadroom(RerankRow(1, 79.9), 0));
  SearchResult result;
  result.plans = {RerankRow(9.0, 79.9), RerankRow(9.5, 70), RerankRow(9.5004, 60),
                  RerankRow(10, 50)};
  result.plans_folded = {1, 2, 3, 4};
  RankByHeadroom(result, 11);
  REQUIRE(result.plans.size() == 4);
  CHECK(result.plans[0].peak_memory_bytes == 60 * kGiB);  // same 9.500 s step, less memory
  CHECK(result.plans[1].peak_memory_bytes == 70 * kGiB);
  CHECK(result.plans[2].step_time_s == 10);
  CHECK(result.plans[3].step_time_s == 9.0);  // the fastest, but tight: last
  CHECK(result.plans_folded == std::vector<int64_t>{3, 2, 4, 1});
  CHECK(kDefaultHeadroomPct == 11);
}

}  // namespace
}  // namespace paraplan
