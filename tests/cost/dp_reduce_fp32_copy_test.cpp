// Aleph Alpha Scaling's DP reduction (kernel_recipe.h, dp_reduce_fp32_copy): each bf16 gradient
// bucket is all-reduced as an fp32 copy and copied back, against hand arithmetic.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "cost/compute_cost.h"
#include "cost/dp_comm.h"
#include "cost/elementwise_cost.h"
#include "cost/plan_evaluation.h"
#include "cost/stage_key.h"
#include "cost/stage_memory.h"
#include "hardware/collective_cost.h"
#include "plan/framework_profile.h"
#include "test_specs.h"
#include "validate/framework_conventions.h"

using namespace paraplan;

namespace {

// The two-layer model of test_specs.h (99,095,552 parameters, counted there).
using test::TwoLayers;
constexpr double kCopyParams = test::kTwoLayerParams;

ParallelPlan Scaling(int64_t dp) {
  ParallelPlan p;
  p.dp = dp;
  p.zero = 1;
  p.micro_batch = 1;
  p.global_batch = dp;
  p.grad_reduce_in_fp32 = false;  // bf16 accumulation buffer (param.grad)
  p.overlap_grad_reduce = false;
  p.overlap_param_gather = false;
  p.kernels.zero1_all_reduce = true;
  p.dp_bucket_MB = 2000;
  return p;
}

}  // namespace

TEST_CASE("Scaling all-reduces an fp32 copy of its bf16 gradient buckets",
          "[cost][dp_reduce_fp32_copy]") {
  const ModelSpec m = TwoLayers();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);

  ParallelPlan p = Scaling(64);  // 8 nodes: the DP group crosses the scale-out tier
  // Without the switch the bf16 buffer caps the reduction at bf16 (Megatron-Core's in-place
  // reduction); with it the wire carries fp32.
  CHECK(DpGradCommDtype(p) == CommDtype::kBf16);
  PlanEvaluation bf16;
  EvaluatePlanTime(d, c, links, p, &bf16);
  p.kernels.dp_reduce_fp32_copy = true;
  CHECK(DpGradCommDtype(p) == CommDtype::kFp32);
  PlanEvaluation fp32;
  EvaluatePlanTime(d, c, links, p, &fp32);

  const GroupPlacement& g = fp32.shape.groups.dp_cp;
  REQUIRE(g.size == 64);
  // zero1_all_reduce: one all-reduce of the whole buffer, 4 B per parameter.
  CHECK(fp32.dp[0].grad_s ==
        Approx(CollectiveSeconds(CollectiveOp::kAllReduce, 4 * kCopyParams, g, links)));
  CHECK(bf16.dp[0].grad_s ==
        Approx(CollectiveSeconds(CollectiveOp::kAllReduce, 2 * kCopyParams, g, links)));
  CHECK(fp32.dp[0].grad_s > 1.5 * bf16.dp[0].grad_s);
  // The copies: 24 B per parameter through HBM, one launch per tensor and four per bucket, in
  // the optimizer step.
  const double tensors = StageParamTensors(d, StageKeyOf(p, fp32, 0));
  const double passes = Fp32CopyPassesSeconds(c, tensors, 1, kCopyParams);
  CHECK(passes ==
        Approx((tensors + 4) * EagerLaunchSeconds(c) + MemoryBoundSeconds(c, 24 * kCopyParams)));
  CHECK(fp32.dp[0].optimizer_s == Approx(bf16.dp[0].optimizer_s + passes));
  // Memory is the bf16 buffer's either way (the copies live inside the step, after the backward).
  CHECK(DpBucketCopyBytes(p, kCopyParams) == 0);

  // One data-parallel rank reduces nothing: no copies (allreduce_gradients returns at dp 1).
  ParallelPlan one = Scaling(1);
  one.kernels.dp_reduce_fp32_copy = true;
  PlanEvaluation e1, e1off;
  EvaluatePlanTime(d, c, links, one, &e1);
  one.kernels.dp_reduce_fp32_copy = false;
  EvaluatePlanTime(d, c, links, one, &e1off);
  CHECK(e1.dp[0].optimizer_s == e1off.dp[0].optimizer_s);
}

TEST_CASE("validate gives Scaling runs the fp32 bucket copy, fusion stated or not",
          "[cost][dp_reduce_fp32_copy]") {
  const FrameworkProfile* scaling = FindProfile(Framework::kScaling);
  REQUIRE(scaling != nullptr);
  CHECK(scaling->runtime.dp_reduce_fp32_copy);
  const ModelSpec m = TwoLayers();
  for (const bool fusion_stated : {false, true}) {
    INFO(fusion_stated);
    PlanConstraints c;
    if (fusion_stated) c.kernels = KernelRecipe{};  // a run that states `fusion: eager`
    std::vector<std::string> notes;
    const PlanConstraints out = ApplyFrameworkConventions(scaling, m, c, &notes);
    REQUIRE(out.kernels);
    CHECK(out.kernels->dp_reduce_fp32_copy);
  }
  // Not for a framework that reduces its buffer in place.
  PlanConstraints c;
  c.kernels = KernelRecipe{};
  const PlanConstraints out =
      ApplyFrameworkConventions(FindProfile(Framework::kMegatron), m, c, nullptr);
  CHECK_FALSE((out.kernels && out.kernels->dp_reduce_fp32_copy));
}
