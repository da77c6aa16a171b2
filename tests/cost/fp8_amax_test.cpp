// TransformerEngine's delayed-scaling amax reduction (cost/fp8_amax.h) against hand arithmetic.
#include "cost/fp8_amax.h"

#include <catch2/catch.hpp>

#include "cost/elementwise_cost.h"
#include "cost/plan_evaluation.h"
#include "hardware/group_placement.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// Llama-3 70B (80 layers) at tp 4, pp 2 with 2 virtual stages, dp 8: 64 GPUs.
ParallelPlan Fp8Plan() {
  ParallelPlan p;
  p.tp = 4;
  p.pp = 2;
  p.vpp = 2;
  p.dp = 8;
  p.schedule = Schedule::kInterleaved;
  p.micro_batch = 1;
  p.global_batch = 64;
  p.sequence_parallel = true;
  p.precision = Precision::kFp8;
  return p;
}

}  // namespace

TEST_CASE("TE's delayed scaling all-reduces each chunk's amaxes over tp x cp x dp", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const ParallelPlan p = Fp8Plan();
  const PlanShape s = MakePlanShape(d, p, c);
  // 20 layers a chunk: 12 float32 amaxes each, over the 32 ranks of a stage (4 nodes).
  const GroupPlacement group = PlaceGroup(32, 1, c);
  REQUIRE(group.tier == 1);
  const double expected = 2 * 1e-6 * c.efficiency.kernel_launch_us +
                          CollectiveSeconds(CollectiveOp::kAllReduce, 4.0 * 12 * 20, group, links);
  CHECK(Fp8AmaxSeconds(c, links, p, s, 20) == Approx(expected));
  CHECK(expected < 1e-3);  // latency-bound: tens of microseconds
  // The step pays it per chunk and pass: 2 chunks a stage, forward and backward.
  PlanEvaluation e;
  EvaluatePlanTime(d, c, links, p, &e);
  CHECK(e.amax_s == Approx(expected));
  CHECK(e.times[0].f > 2 * e.amax_s);
  // Not for bf16, torchao's float8 (no delayed amax) or DeepSeek's block-wise scaling.
  ParallelPlan bf16 = p;
  bf16.precision = Precision::kBf16;
  CHECK(Fp8AmaxSeconds(c, links, bf16, MakePlanShape(d, bf16, c), 20) == 0);
  ParallelPlan torchao = p;
  torchao.kernels.fusion = Fusion::kCompile;
  CHECK(Fp8AmaxSeconds(c, links, torchao, MakePlanShape(d, torchao, c), 20) == 0);
  ParallelPlan dualpipe = p;
  dualpipe.schedule = Schedule::kDualPipe;
  CHECK(Fp8AmaxSeconds(c, links, dualpipe, MakePlanShape(d, dualpipe, c), 20) == 0);
}

TEST_CASE("Current scaling all-reduces one amax per SP cast over TP, MXFP8 reduces none",
          "[cost]") {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p = Fp8Plan();
  p.kernels.fp8_recipe = Fp8Recipe::kTensorwise;
  const PlanShape s = MakePlanShape(d, p, c);
  // 20 layers a chunk, 2 sequence-parallel casts a layer and pass, one float32 over the 4 TP
  // ranks of a node: no history, no update kernels.
  const GroupPlacement tp = PlaceGroup(4, 1, c);
  const double expected = 2 * 20 * CollectiveSeconds(CollectiveOp::kAllReduce, 4.0, tp, links);
  CHECK(Fp8AmaxSeconds(c, links, p, s, 20) == Approx(expected));
  CHECK(expected > 0);
  // Without sequence parallelism each rank casts its whole input: nothing to reduce.
  ParallelPlan no_sp = p;
  no_sp.sequence_parallel = false;
  CHECK(Fp8AmaxSeconds(c, links, no_sp, MakePlanShape(d, no_sp, c), 20) == 0);
  ParallelPlan mx = p;
  mx.kernels.fp8_recipe = Fp8Recipe::kMxfp8;
  CHECK(Fp8AmaxSeconds(c, links, mx, MakePlanShape(d, mx, c), 20) == 0);
}
