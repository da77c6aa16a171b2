#include "cost/pipeline_time.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace paraplan;

namespace {
std::vector<StageTimes> UniformStages(int64_t pp, double f, double b, double w) {
  return std::vector<StageTimes>(static_cast<size_t>(pp), StageTimes{f, b, w});
}
}  // namespace

TEST_CASE("1F1B makespan (m + p - 1)(f + b) and bubble fraction (p-1)/m", "[cost]") {
  // Narayanan et al. SC'21, Sec. 2.2.1: bubble time fraction = (p - 1) / m.
  const auto st = UniformStages(8, 1.0, 1.0, 1.0);
  const PipelineTime t = PipelineMakespan(Schedule::k1F1B, 8, 1, 32, st.data());
  CHECK(t.makespan_s == Approx((32 + 8 - 1) * 3.0));
  CHECK(t.bubble_s / t.busy_s == Approx(7.0 / 32));
  CHECK(PipelineMakespan(Schedule::kGpipe, 8, 1, 32, st.data()).makespan_s == t.makespan_s);
}

TEST_CASE("interleaving divides the bubble by vpp", "[cost]") {
  const auto st = UniformStages(8, 1.0, 1.0, 1.0);
  const PipelineTime t = PipelineMakespan(Schedule::kInterleaved, 8, 4, 32, st.data());
  CHECK(t.bubble_s / t.busy_s == Approx(7.0 / (4 * 32)));  // (p-1)/(v m), same paper Sec. 2.2.2
}

TEST_CASE("zero-bubble and DualPipe bubbles are smaller than 1F1B's", "[cost]") {
  const auto st = UniformStages(8, 1.0, 1.0, 1.0);
  const double one = PipelineMakespan(Schedule::k1F1B, 8, 1, 32, st.data()).bubble_s;
  const double zb = PipelineMakespan(Schedule::kZeroBubble, 8, 1, 32, st.data()).bubble_s;
  const double dual = PipelineMakespan(Schedule::kDualPipe, 8, 1, 32, st.data()).bubble_s;
  CHECK(zb == Approx(7.0 * 1.0));    // ZB-H1: (p-1)(F + B - W), Qi et al. ICLR'24
  CHECK(dual == Approx(3.0 * 1.0));  // (p/2 - 1)(F&B + B - 3W), DeepSeek-V3 Table 2
  CHECK(zb < one);
  CHECK(dual < zb);
}

TEST_CASE("the slowest stage decides, others add fill and drain", "[cost]") {
  auto st = UniformStages(4, 1.0, 2.0, 0.0);
  st[2] = {2.0, 4.0, 0.0};
  const PipelineTime t = PipelineMakespan(Schedule::k1F1B, 4, 1, 16, st.data());
  CHECK(t.slowest_stage == 2);
  CHECK(t.busy_s == Approx(16 * 6.0));
  CHECK(t.bubble_s == Approx(3 * 3.0));
}
