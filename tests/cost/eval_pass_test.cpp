#include "cost/eval_pass.h"

#include <catch2/catch.hpp>

using namespace paraplan;

// MLPerf v6.0 DeepSeek-V3: 1,024 evaluated sequences (eval_batch_size = min(1024, GBS)) over dp
// 64 / 256 / 512 / 1,024 replicas of micro-batch 1 (M59-M62 of docs/validation/public_runs.yaml).
TEST_CASE("the evaluation's micro-batches per replica round up", "[cost]") {
  CHECK(EvalMicroBatches(1024, 64, 1) == 16);
  CHECK(EvalMicroBatches(1024, 256, 1) == 4);
  CHECK(EvalMicroBatches(1024, 1024, 1) == 1);
  CHECK(EvalMicroBatches(1024, 2048, 1) == 1);  // a replica runs whole micro-batches
  CHECK(EvalMicroBatches(1000, 64, 2) == 8);    // 1000 / 128 = 7.8 -> 8
  CHECK(EvalMicroBatches(0, 64, 1) == 0);
}

// By hand, balanced stages: p = 4 stages of F = 40 ms in vpp = 4 chunks of c = 10 ms.
TEST_CASE("a forward-only pass crosses every chunk, then runs at the slowest stage", "[cost]") {
  const std::vector<double> balanced(4, 0.040);
  // One micro-batch: the whole model's forward, 16 chunks of 10 ms.
  CHECK(ForwardOnlyPipelineSeconds(balanced, 4, 1) == Approx(0.160));
  // Two: the second follows one chunk behind the first.
  CHECK(ForwardOnlyPipelineSeconds(balanced, 4, 2) == Approx(0.170));
  // m = p: both branches agree, p F + (p - 1) c = 0.160 + 0.030.
  CHECK(ForwardOnlyPipelineSeconds(balanced, 4, 4) == Approx(0.190));
  // Sixteen: the slowest stage's 16 x 40 ms after a fill of three chunks.
  CHECK(ForwardOnlyPipelineSeconds(balanced, 4, 16) == Approx(0.670));
  // No interleaving: GPipe's forward, S + (m - 1) F.
  CHECK(ForwardOnlyPipelineSeconds(balanced, 1, 16) == Approx(0.160 + 15 * 0.040));
  CHECK(ForwardOnlyPipelineSeconds(balanced, 1, 2) == Approx(0.200));
  // One stage: m forwards back to back.
  CHECK(ForwardOnlyPipelineSeconds({0.025}, 1, 8) == Approx(0.200));
  CHECK(ForwardOnlyPipelineSeconds(balanced, 4, 0) == 0);
  CHECK(ForwardOnlyPipelineSeconds({}, 1, 4) == 0);
}

TEST_CASE("an uneven pipeline runs at its slowest stage", "[cost]") {
  // Stages of 30, 40, 40, 50 ms (sum 160), vpp 2: the slowest stage's chunk is 25 ms.
  const std::vector<double> uneven = {0.030, 0.040, 0.040, 0.050};
  CHECK(ForwardOnlyPipelineSeconds(uneven, 2, 1) == Approx(0.160));
  CHECK(ForwardOnlyPipelineSeconds(uneven, 2, 3) == Approx(0.160 + 2 * 0.025));
  CHECK(ForwardOnlyPipelineSeconds(uneven, 2, 8) == Approx(8 * 0.050 + 0.110 / 2));
  // Never faster than the slowest stage's own work, never than one crossing of the model.
  for (int64_t m = 1; m <= 32; ++m) {
    const double t = ForwardOnlyPipelineSeconds(uneven, 2, m);
    CHECK(t >= static_cast<double>(m) * 0.050 - 1e-12);
    CHECK(t >= 0.160 - 1e-12);
  }
}
