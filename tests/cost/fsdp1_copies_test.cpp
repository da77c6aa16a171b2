// ZeRO-3 as PyTorch FSDP1 runs it (issue 37, stop 46; kernel_recipe.h fsdp1): the all-gather
// writes into the flat parameter the original parameters view, so nothing is copied out; before
// each reduce-scatter autograd concatenates the gradients into the flat gradient, and a reduce
// dtype other than the parameters' adds a cast. FSDP2 copies every gathered unit out and every
// gradient in (zero3_comm.h).
#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "cost/plan_evaluation.h"
#include "cost/zero3_comm.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan ShardedPlan(bool fsdp1, CommDtype reduce) {
  ParallelPlan p;
  p.dp = 64;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 128;           // 2 micro-batches per rank
  p.overlap_grad_reduce = false;  // every copy and collective on the critical path
  p.overlap_param_gather = false;
  p.dp_comm_dtype = reduce;
  p.kernels.fusion = Fusion::kEager;  // a PyTorch profile: FSDP's copies on the compute stream
  p.kernels.fsdp1 = fsdp1;
  return p;
}

// PlanEvaluation is not copyable (its stage vectors may point into it): filled in place.
void Evaluate(const ParallelPlan& p, PlanEvaluation* e) {
  const CostGraph d = BuildCostGraph(test::TwoLayers());
  const Cluster c = test::DgxH100();
  EvaluatePlanTime(d, c, ResolveNetworkLinks(c), p, e);
}

}  // namespace

TEST_CASE("FSDP1 copies no gathered unit out, only the gradients into the flat gradient",
          "[cost]") {
  // Bytes per parameter: FSDP2 copies 2 + 2 out per gather and 2 + reduce in before each
  // reduce-scatter; FSDP1 concatenates 2 + 2 and casts 2 + reduce only when reduce is not bf16.
  const Fsdp2Copy two = Fsdp2CopyBytes(2.0);
  CHECK(two.forward == Approx(4.0));
  CHECK(two.backward == Approx(8.0));
  const Fsdp2Copy one = Fsdp1CopyBytes(2.0);
  CHECK(one.forward == 0.0);
  CHECK(one.backward == Approx(4.0));
  const Fsdp2Copy one_fp32 = Fsdp1CopyBytes(4.0);
  CHECK(one_fp32.forward == 0.0);
  CHECK(one_fp32.backward == Approx(4.0 + 6.0));
  CHECK(Fsdp2CopyBytes(4.0).backward == Approx(4.0 + 6.0));
}

TEST_CASE("FSDP1's step drops FSDP2's copy-outs and keeps its collectives", "[cost]") {
  PlanEvaluation v2, v1;
  Evaluate(ShardedPlan(false, CommDtype::kBf16), &v2);
  Evaluate(ShardedPlan(true, CommDtype::kBf16), &v1);
  REQUIRE(v1.micro_batches == 2);
  const Zero3Comm& a = v2.dp[0].zero3;
  const Zero3Comm& b = v1.dp[0].zero3;
  REQUIRE(a.copy_fwd_s > 0);
  // The same gathers and reduce-scatters: only the copies on the compute stream change.
  CHECK(b.gather_s == Approx(a.gather_s));
  CHECK(b.reduce_scatter_s == Approx(a.reduce_scatter_s));
  CHECK(b.copy_fwd_s == 0.0);
  CHECK(b.copy_bwd_s == Approx(a.copy_bwd_s * 4.0 / 8.0));
  CHECK(v1.step_s < v2.step_s);
  // In fp32 the cast of the flat gradient makes FSDP1's backward copies the same bytes as FSDP2's.
  PlanEvaluation w2, w1;
  Evaluate(ShardedPlan(false, CommDtype::kFp32), &w2);
  Evaluate(ShardedPlan(true, CommDtype::kFp32), &w1);
  CHECK(w1.dp[0].zero3.copy_bwd_s == Approx(w2.dp[0].zero3.copy_bwd_s));
  CHECK(w1.dp[0].zero3.copy_fwd_s == 0.0);
}

TEST_CASE("FSDP1 is a plan switch and changes nothing outside a PyTorch ZeRO-3", "[cost][plan]") {
  const PlanConstraints c = ParsePlanString("fsdp1=true");
  REQUIRE(c.kernels);
  CHECK(c.kernels->fsdp1);
  // Under DeepSpeed's coordinator the engine's own gradient copies are charged, FSDP1 or not.
  ParallelPlan ds = ShardedPlan(false, CommDtype::kBf16);
  ds.kernels.zero3_max_live_params = 1e9;
  ParallelPlan ds1 = ds;
  ds1.kernels.fsdp1 = true;
  PlanEvaluation a, b;
  Evaluate(ds, &a);
  Evaluate(ds1, &b);
  CHECK(b.step_s == Approx(a.step_s));
  CHECK(b.dp[0].zero3.copy_bwd_s == Approx(a.dp[0].zero3.copy_bwd_s));
}
