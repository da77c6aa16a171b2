#include "sim/dp_tail.h"

#include <catch2/catch.hpp>

using namespace paraplan;

namespace {

// One chunk whose last backward runs from 0 to 100 ns; 80 ns of gradients in 2 buckets, ready
// at 50 and 100.
StageTail Tail(double nic_rate, double sm_share) {
  StageDpWork dp;
  dp.grad_comm = 80;
  dp.buckets = 2;
  dp.sm_share = sm_share;
  dp.nic_rate_bwd = nic_rate;
  return RunStageTail(dp, {GradWindow{0, 0, 100}}, 100, true);
}

}  // namespace

TEST_CASE("DP tail: buckets beside the last backward hold SMs", "[sim]") {
  const StageTail t = Tail(1.0, 0.1);
  REQUIRE(t.buckets.size() == 2);
  CHECK(t.buckets[0].start == 50);
  CHECK(t.buckets[0].end == 90);
  CHECK(t.buckets[1].start == 100);
  CHECK(t.buckets[1].end == 140);
  CHECK(t.sm_loss == 4);  // 40 ns beside the compute at 10% of the SMs
  CHECK(t.optimizer_start == 140);
  CHECK(Tail(1.0, 0.0).sm_loss == 0);
}

TEST_CASE("DP tail: a NIC shared with the backward's own traffic slows the buckets", "[sim]") {
  // Half the NIC before the compute ends: bucket 0 gets 25 ns of its 40 done by 100, the rest
  // after; bucket 1 queues behind it.
  const StageTail t = Tail(0.5, 0.1);
  CHECK(t.buckets[0].end == 115);
  CHECK(t.buckets[1].start == 115);
  CHECK(t.buckets[1].end == 155);
  CHECK(t.sm_loss == 5);  // 50 ns beside the compute
  CHECK(t.optimizer_start == 155);
  // When the SM loss outlasts the buckets, the optimizer waits for the slowed compute.
  StageDpWork dp;
  dp.grad_comm = 10;
  dp.buckets = 1;
  dp.sm_share = 0.5;
  const StageTail small = RunStageTail(dp, {GradWindow{0, 0, 100}}, 200, true);
  CHECK(small.buckets[0].start == 100);
  CHECK(small.buckets[0].end == 110);
  CHECK(small.sm_loss == 5);
  CHECK(small.optimizer_start == 200 + 5);
}
