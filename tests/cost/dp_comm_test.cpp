// nanotron's ZeRO-1 gradient reduction (issue 37): one all-reduce of the whole fp32 gradient
// buffer after the backward and one all-gather of the bf16 parameters, against hand arithmetic.
#include "cost/dp_comm.h"

#include <catch2/catch.hpp>

#include "cost/collective_calls.h"
#include "cost/compute_cost.h"
#include "cost/elementwise_cost.h"
#include "cost/plan_evaluation.h"
#include "cost/stage_key.h"
#include "hardware/collective_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// The two-layer model of test_specs.h (99,095,552 parameters, counted there).
using test::TwoLayers;
constexpr double kParams = test::kTwoLayerParams;

}  // namespace

TEST_CASE("nanotron's ZeRO-1 all-reduces the whole fp32 gradient buffer in one call", "[cost]") {
  const ModelSpec m = TwoLayers();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 64;  // 8 nodes: the DP group crosses the scale-out tier
  p.zero = 1;
  p.micro_batch = 1;
  p.global_batch = 64;
  p.grad_reduce_in_fp32 = true;
  p.overlap_grad_reduce = false;
  p.overlap_param_gather = false;
  p.dp_bucket_MB = 40;  // the reduce-scatter path would take ceil(396.4 / 40) = 10 buckets

  PlanEvaluation rs;
  EvaluatePlanTime(d, c, links, p, &rs);
  p.kernels.zero1_all_reduce = true;
  PlanEvaluation ar;
  EvaluatePlanTime(d, c, links, p, &ar);

  const GroupPlacement& g = ar.shape.groups.dp_cp;
  REQUIRE(g.size == 64);
  CHECK(CommDtypeBytes(DpGradCommDtype(p)) == 4);  // fp32 (accumulate_grad_in_fp32)
  // One call each: 4 B x 99,095,552 = 396,382,208 B all-reduced, 2 B x the same all-gathered.
  CHECK(ar.dp[0].buckets == 1);
  CHECK(rs.dp[0].buckets == 10);
  CHECK(ar.dp[0].grad_s ==
        Approx(CollectiveSeconds(CollectiveOp::kAllReduce, 4 * kParams, g, links)));
  CHECK(ar.dp[0].param_gather_s ==
        Approx(CollectiveSeconds(CollectiveOp::kAllGather, 2 * kParams, g, links)));
  CHECK(rs.dp[0].grad_s ==
        Approx(10 * CollectiveSeconds(CollectiveOp::kReduceScatter, 4 * kParams / 10, g, links)));
  // Twice a reduce-scatter's bytes on the wire: slower, however NCCL's tuning picks each.
  CHECK(ar.dp[0].grad_s > rs.dp[0].grad_s);
  // Not overlapped (trainer.py: after train_batch_iter): all of it on the step.
  CHECK(ar.dp[0].grad_exposed_s == Approx(ar.dp[0].grad_s));

  // all_gather_coalesced's copies: 6 tensors per layer (qkv, out, up, down, two norms), the
  // embedding, the final norm and the untied head: 2 x 6 + 3 = 15 tensors; 64 ranks x 15
  // copy_ calls + 64 torch.cat + 64 PyTorch copies = 1,088 kernels, and three bf16 passes.
  StageKey key = StageKeyOf(p, ar, 0);
  CHECK(d.gemms[0].size == 4);
  CHECK(StageParamTensors(d, key) == 15);
  const GatherCopies copies = Zero1GatherCopies(c, 15, kParams, 64);
  CHECK(copies.copies == 1088);
  CHECK(copies.s == Approx(1088 * EagerLaunchSeconds(c) + MemoryBoundSeconds(c, 12 * kParams)));
  CHECK(ar.dp[0].optimizer_s - rs.dp[0].optimizer_s == Approx(copies.s));
  CHECK(Zero1GatherCopies(c, 15, kParams, 1).s == 0);  // no DP: nothing gathered

  // explain's table lists the two calls with their bytes.
  const std::vector<CollectiveCall> calls = DescribeCollectives(d, c, links, p, ar);
  int found = 0;
  for (const CollectiveCall& call : calls) {
    if (call.group != "dp") continue;
    ++found;
    if (call.op == "all_reduce") {
      CHECK(call.bytes == Approx(4 * kParams));
      CHECK(call.seconds == Approx(ar.dp[0].grad_s));  // the time shown is the time charged
    }
    if (call.op == "all_gather") CHECK(call.bytes == Approx(2 * kParams));
    CHECK(call.op != "reduce_scatter");
  }
  CHECK(found == 2);

  // zero=0 and the other frameworks' zero=1 are untouched by the flag's absence.
  p.zero = 0;
  PlanEvaluation z0a;
  EvaluatePlanTime(d, c, links, p, &z0a);
  p.kernels.zero1_all_reduce = false;
  PlanEvaluation z0b;
  EvaluatePlanTime(d, c, links, p, &z0b);
  CHECK(z0a.dp[0].grad_s == z0b.dp[0].grad_s);
  CHECK(z0a.dp[0].buckets == z0b.dp[0].buckets);
}

TEST_CASE("nanotron's fp32 accumulation pass runs after every micro-batch's backward", "[cost]") {
  const ModelSpec m = TwoLayers();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 1;
  p.pp = 1;
  p.micro_batch = 1;
  p.global_batch = 8;  // 8 micro-batches
  PlanEvaluation off;
  EvaluatePlanTime(d, c, links, p, &off);
  p.kernels.fp32_grad_accum_pass = true;
  PlanEvaluation on;
  EvaluatePlanTime(d, c, links, p, &on);
  // 15 tensors (qkv, out, up, down, two norms per layer; embedding, final norm, head), one add_
  // each, and 10 B per parameter: bf16 gradient read, fp32 buffer read and written.
  const double pass = 15 * EagerLaunchSeconds(c) + MemoryBoundSeconds(c, 10 * kParams);
  CHECK(on.dp[0].grad_accum_s == Approx(pass));
  CHECK(off.dp[0].grad_accum_s == 0);
  CHECK(on.times[0].b - off.times[0].b == Approx(pass));  // in the backward, per micro-batch
  CHECK(on.times[0].f == off.times[0].f);
  // One stage, eight micro-batches: the step grows by eight passes.
  CHECK(on.step_s - off.step_s == Approx(8 * pass).epsilon(1e-3));
}

TEST_CASE("Tied embeddings split over the pipeline: one two-rank all-reduce before the optimizer",
          "[cost]") {
  ModelSpec m = TwoLayers();
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.pp = 2;
  p.dp = 8;  // pp stride 8: stage 0 on node 0, stage 1 on node 1
  p.micro_batch = 1;
  p.global_batch = 16;
  p.grad_reduce_in_fp32 = true;
  PlanEvaluation untied;
  EvaluatePlanTime(BuildCostGraph(m), c, links, p, &untied);
  m.tied_embeddings = true;
  const CostGraph d = BuildCostGraph(m);
  PlanEvaluation tied;
  EvaluatePlanTime(d, c, links, p, &tied);
  // The embedding group {stage 0, stage 1} of each (tp, dp) rank: 2 ranks, 8 apart, across nodes;
  // the local embedding's fp32 gradient, 32,000 x 1,024 x 4 B, all-reduced.
  const GroupPlacement pair = PlaceGroup(2, 8, c);
  CHECK(pair.tier >= 1);
  const double sync = CollectiveSeconds(CollectiveOp::kAllReduce, 4.0 * 32000 * 1024, pair, links);
  CHECK(sync > 0);
  // Both stages pay it with their optimizer step; the untied model holds as many parameters per
  // stage (its head is vocab x hidden too) and pays nothing of the kind.
  CHECK(tied.dp[0].optimizer_s - untied.dp[0].optimizer_s == Approx(sync));
  CHECK(tied.dp[1].optimizer_s - untied.dp[1].optimizer_s == Approx(sync));
  CHECK(tied.optimizer_s - untied.optimizer_s == Approx(sync));
  CHECK(tied.step_s > untied.step_s);
  // explain's table lists the call at the time charged.
  int rows = 0;
  for (const CollectiveCall& call : DescribeCollectives(d, c, links, p, tied)) {
    if (call.what.find("tied embedding") == std::string::npos) continue;
    ++rows;
    CHECK(call.op == "all_reduce");
    CHECK(call.ranks == 2);
    CHECK(call.bytes == Approx(4.0 * 32000 * 1024));
    CHECK(call.seconds == Approx(sync));
  }
  CHECK(rows == 1);
  // One stage: the head is the embedding's tensor, nothing to synchronize.
  p.pp = 1;
  p.dp = 16;
  PlanEvaluation one;
  EvaluatePlanTime(d, c, links, p, &one);
  m.tied_embeddings = false;
  PlanEvaluation one_untied;
  EvaluatePlanTime(BuildCostGraph(m), c, links, p, &one_untied);
  // One copy fewer of vocab x hidden, and no all-reduce added.
  CHECK(one.dp[0].optimizer_s / one_untied.dp[0].optimizer_s ==
        Approx((kParams - 32000.0 * 1024) / kParams));
}

TEST_CASE("DeepSpeed's ZeRO-1/2 all-reduce each gradient bucket instead of reduce-scattering it",
          "[cost]") {
  // deepspeed/runtime/zero/stage_1_and_2.py (v0.12.4 on, use_multi_rank_bucket_allreduce):
  // average_tensor -> allreduce_and_scatter -> dist.all_reduce of the bucket; each rank copies
  // out its own partition's slice.
  const ModelSpec m = TwoLayers();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  for (int zero : {1, 2}) {
    INFO("zero " << zero);
    ParallelPlan p;
    p.dp = 64;  // 8 nodes
    p.zero = zero;
    p.micro_batch = 1;
    p.global_batch = 64;
    p.grad_reduce_in_fp32 = false;  // DeepSpeed reduces in the training dtype
    p.overlap_grad_reduce = false;
    p.overlap_param_gather = false;
    p.dp_bucket_MB = 40;  // ceil(2 B x 99,095,552 / 40 MB) = 5 buckets
    PlanEvaluation rs;
    EvaluatePlanTime(d, c, links, p, &rs);
    p.kernels.zero_bucket_all_reduce = true;
    PlanEvaluation ar;
    EvaluatePlanTime(d, c, links, p, &ar);
    const GroupPlacement& g = ar.shape.groups.dp_cp;
    REQUIRE(g.size == 64);
    CHECK(DpGradOp(p) == CollectiveOp::kAllReduce);
    // Still bucketed (not nanotron's whole buffer): 5 calls either way.
    CHECK(ar.dp[0].buckets == 5);
    CHECK(rs.dp[0].buckets == 5);
    CHECK(ar.dp[0].grad_s ==
          Approx(5 * CollectiveSeconds(CollectiveOp::kAllReduce, 2 * kParams / 5, g, links)));
    CHECK(rs.dp[0].grad_s ==
          Approx(5 * CollectiveSeconds(CollectiveOp::kReduceScatter, 2 * kParams / 5, g, links)));
    CHECK(ar.dp[0].grad_s > rs.dp[0].grad_s);  // twice the bytes on the wire
    CHECK(ar.dp[0].param_gather_s == Approx(rs.dp[0].param_gather_s));  // gather unchanged
    CHECK(ar.step_s > rs.step_s);
    // explain lists the gradient bucket as the all-reduce it charges, no reduce-scatter.
    bool listed = false;
    for (const CollectiveCall& call : DescribeCollectives(d, c, links, p, ar)) {
      if (call.group != "dp") continue;
      CHECK(call.op != "reduce_scatter");
      if (call.op == "all_reduce") listed = true;
    }
    CHECK(listed);
  }
  // ZeRO-0 all-reduces anyway and ZeRO-3 reduce-scatters per unit: the flag changes neither.
  for (int zero : {0, 3}) {
    ParallelPlan p;
    p.dp = 64;
    p.zero = zero;
    p.micro_batch = 1;
    p.global_batch = 64;
    PlanEvaluation off;
    EvaluatePlanTime(d, c, links, p, &off);
    p.kernels.zero_bucket_all_reduce = true;
    PlanEvaluation on;
    EvaluatePlanTime(d, c, links, p, &on);
    CHECK(on.step_s == off.step_s);
  }
}
