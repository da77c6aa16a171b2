#include "cost/overlap_sm.h"

#include <catch2/catch.hpp>

using namespace paraplan;

namespace {

GpuSpec GpuWithSms(int64_t sms) {
  GpuSpec g;
  g.sm_count = sms;
  return g;
}

}  // namespace

TEST_CASE("SM share: communication SMs over the GPU's", "[cost]") {
  CHECK(SmShare(16, GpuWithSms(132)) == Approx(16.0 / 132));
  CHECK(SmShare(20, GpuWithSms(132)) == Approx(0.1515).epsilon(1e-3));  // DeepSeek-V3: 20 of 132
  CHECK(SmShare(0, GpuWithSms(132)) == 0);
  CHECK(SmShare(16, GpuWithSms(0)) == 0);  // unknown SM count: no cost
  CHECK(SmShare(200, GpuWithSms(132)) == 1);
}

TEST_CASE("concurrent law: compute beside communication ends at max(X, C + X c/S)", "[cost]") {
  // Hidden entirely: 10 s of communication beside 20 s of compute at 10% of the SMs.
  OverlapCost o = OverlapSeconds(10, 20, 0, 0.1);
  CHECK(o.exposed_s == 0);
  CHECK(o.sm_loss_s == Approx(1.0));
  // Nearly as long as the compute: max(10, 8 + 2.5) - 8 = 2.5 = 2 exposed + 0.5 lost.
  o = OverlapSeconds(10, 8, 0, 0.25);
  CHECK(o.exposed_s == Approx(2.0));
  CHECK(o.sm_loss_s == Approx(0.5));
  // Much longer: the slowed compute still fits inside it, max(10, 4 + 2.5) = 10.
  o = OverlapSeconds(10, 4, 0, 0.25);
  CHECK(o.exposed_s == Approx(6.0));
  CHECK(o.sm_loss_s == 0);
  // A first chunk that cannot overlap is exposed and holds no compute back.
  o = OverlapSeconds(10, 20, 2, 0.1);
  CHECK(o.exposed_s == Approx(2.0));
  CHECK(o.sm_loss_s == Approx(0.8));
  CHECK(ConcurrentLossSeconds(8, 2, 0.25) == Approx(0.5));
  CHECK(ConcurrentLossSeconds(8, 0, 0) == 0);
}

TEST_CASE("margin law: a GEMM launched on S - c SMs", "[cost]") {
  CHECK(MarginLossSeconds(1.0, 16, GpuWithSms(132)) == Approx(16.0 / 116));
  CHECK(MarginLossSeconds(1.0, 16, GpuWithSms(0)) == 0);
  CHECK(MarginLossSeconds(0, 16, GpuWithSms(132)) == 0);
}

TEST_CASE("parameter gather against the first forward: shared NIC and SMs", "[cost]") {
  // 10 s of gather in 5 buckets, a 6 s forward leaving half the NIC: max(2, 10 - 3) = 7 s
  // waited; the other 3 s of NIC time run 6 s beside the forward, which loses 10% of them.
  GatherWait w = ParamGatherWait(10, 5, 6, 0.5, 0.1, true);
  CHECK(w.wait_s == Approx(7.0));
  CHECK(w.sm_loss_s == Approx(0.6));
  w = ParamGatherWait(10, 5, 100, 1.0, 0.1, true);  // hidden but for the first bucket
  CHECK(w.wait_s == Approx(2.0));
  CHECK(w.sm_loss_s == Approx(0.8));
  w = ParamGatherWait(10, 5, 6, 0.5, 0.1, false);  // not overlapped: all of it, no SM cost
  CHECK(w.wait_s == 10);
  CHECK(w.sm_loss_s == 0);
  w = ParamGatherWait(10, 5, 6, 0.0, 0.1, true);  // the forward keeps the NIC busy throughout
  CHECK(w.wait_s == 10);
  CHECK(w.sm_loss_s == 0);
}
