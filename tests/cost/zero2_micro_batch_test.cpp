// DeepSpeed's ZeRO-2 reduces the gradients after every micro-batch, ZeRO-1 only at the
// accumulation boundary (issue 37, stop 44; kernel_recipe.h zero2_micro_batch_reduce, read at
// v0.6.2 to 2025: stage_1_and_2.py reduce_ready_partitions_and_remove_grads).
#include <catch2/catch.hpp>

#include "cost/dp_comm.h"
#include "cost/plan_evaluation.h"
#include "evaluate/step_model.h"
#include "test_specs.h"
#include "validate/framework_conventions.h"

using namespace paraplan;

namespace {

ParallelPlan DeepSpeedZero(int zero, int64_t global_batch) {
  ParallelPlan p;
  p.dp = 64;  // 8 nodes: the DP group crosses the scale-out tier
  p.zero = zero;
  p.micro_batch = 1;
  p.global_batch = global_batch;
  p.grad_reduce_in_fp32 = false;
  p.overlap_grad_reduce = false;
  p.overlap_param_gather = false;
  p.dp_bucket_MB = 1000;
  p.kernels.zero_bucket_all_reduce = true;
  return p;
}

}  // namespace

TEST_CASE("DeepSpeed's ZeRO-2 pays each earlier micro-batch's gradient reduction", "[cost]") {
  const ModelSpec m = test::TwoLayers();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p = DeepSpeedZero(2, 256);  // 4 micro-batches per rank
  PlanEvaluation off;
  EvaluatePlanTime(d, c, links, p, &off);
  p.kernels.zero2_micro_batch_reduce = true;
  PlanEvaluation on;
  EvaluatePlanTime(d, c, links, p, &on);
  REQUIRE(on.micro_batches == 4);
  const double reduce = on.dp[0].grad_exposed_s;
  REQUIRE(reduce > 0);
  CHECK(reduce == Approx(on.dp[0].grad_s));  // without overlap_comm: all of it exposed
  CHECK(off.dp[0].micro_batch_reduce_s == 0);
  CHECK(on.dp[0].micro_batch_reduce_s == Approx(0.75 * reduce));
  CHECK(Zero2MicroBatchReduceSeconds(p, on.dp[0], 4) == Approx(0.75 * reduce));
  // Three more reductions in the step (the straggler term scales the longer backward a little).
  CHECK(on.step_s - off.step_s == Approx(3 * reduce).epsilon(0.02));
  // The breakdown reports them as DP communication.
  const StepModel model(m, c, p.Gpus());
  const StepResult r = model.Estimate(p);
  CHECK(r.step_time_s == Approx(on.step_s));
  CHECK(r.time.dp_comm_exposed_s == Approx(on.dp_exposed_s + 3 * reduce));

  // ZeRO-1 reduces at the boundary only, one micro-batch has no earlier one, and the flag is
  // only DeepSpeed's: none of these moves.
  for (const auto& [zero, batch, flag] :
       {std::tuple{1, 256, true}, std::tuple{2, 64, true}, std::tuple{2, 256, false}}) {
    INFO("zero " << zero << ", global batch " << batch << ", flag " << flag);
    ParallelPlan q = DeepSpeedZero(zero, batch);
    q.kernels.zero2_micro_batch_reduce = flag;
    PlanEvaluation e;
    EvaluatePlanTime(d, c, links, q, &e);
    CHECK(e.dp[0].micro_batch_reduce_s == 0);
  }
}

TEST_CASE("DeepSpeed and Megatron-DeepSpeed set ZeRO-2's per-micro-batch reduction",
          "[validate][framework]") {
  for (Framework f : {Framework::kDeepSpeed, Framework::kMegatronDeepSpeed}) {
    const FrameworkProfile* profile = FindProfile(f);
    REQUIRE(profile);
    PlanConstraints two;
    two.zero = std::vector<int>{2};
    const PlanConstraints out = ApplyFrameworkConventions(profile, ModelSpec{}, two, nullptr);
    REQUIRE(out.kernels);
    CHECK(out.kernels->zero2_micro_batch_reduce);
    PlanConstraints one;
    one.zero = std::vector<int>{1};
    const PlanConstraints none = ApplyFrameworkConventions(profile, ModelSpec{}, one, nullptr);
    CHECK((!none.kernels || !none.kernels->zero2_micro_batch_reduce));
  }
  // Megatron-LM's distributed optimizer reduces once per step.
  PlanConstraints two;
  two.zero = std::vector<int>{2};
  const PlanConstraints out =
      ApplyFrameworkConventions(FindProfile(Framework::kMegatron), ModelSpec{}, two, nullptr);
  CHECK((!out.kernels || !out.kernels->zero2_micro_batch_reduce));
}
