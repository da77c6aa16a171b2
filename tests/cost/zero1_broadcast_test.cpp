// InternLM's ZeRO-1 at c18bec9 (kernel_recipe.h, zero1_broadcast): gradient buckets all-reduced,
// then one NCCL broadcast per ZeRO rank of its updated bf16 shard, against hand arithmetic.
#include <catch2/catch.hpp>

#include "cost/collective_calls.h"
#include "cost/dp_comm.h"
#include "cost/plan_evaluation.h"
#include "hardware/collective_cost.h"
#include "hardware/group_placement.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// The two-layer model of test_specs.h (99,095,552 parameters, counted there).
using test::TwoLayers;
constexpr double kBroadcastParams = test::kTwoLayerParams;

ParallelPlan Zero1(int64_t dp) {
  ParallelPlan p;
  p.dp = dp;
  p.zero = 1;
  p.micro_batch = 1;
  p.global_batch = dp;
  p.grad_reduce_in_fp32 = false;  // InternLM reduces in the training dtype (bf16)
  p.overlap_grad_reduce = false;
  p.overlap_param_gather = false;
  p.dp_bucket_MB = 40;
  return p;
}

}  // namespace

TEST_CASE("InternLM's ZeRO-1 broadcasts each rank's shard in its own call",
          "[cost][zero1_broadcast]") {
  const ModelSpec m = TwoLayers();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);

  ParallelPlan p = Zero1(64);  // 8 nodes: the DP group crosses the scale-out tier
  PlanEvaluation rs;
  EvaluatePlanTime(d, c, links, p, &rs);
  p.kernels.zero1_broadcast = true;
  PlanEvaluation bc;
  EvaluatePlanTime(d, c, links, p, &bc);

  const GroupPlacement& g = bc.shape.groups.dp_cp;
  REQUIRE(g.size == 64);
  // Gradients: ceil(2 B x 99,095,552 / 40 MB) = 5 buckets, all-reduced instead of reduce-scattered.
  CHECK(bc.dp[0].buckets == 5);
  CHECK(bc.dp[0].grad_s == Approx(5 * CollectiveSeconds(CollectiveOp::kAllReduce,
                                                        2 * kBroadcastParams / 5, g, links)));
  CHECK(bc.dp[0].grad_s > rs.dp[0].grad_s);
  // Parameters: 64 broadcasts of 2 B x 99,095,552 / 64, each costed as the all-gather that moves
  // its bytes (output 64/63 of the shard): the ring latency 64 times, the bytes once.
  const double shard = 2 * kBroadcastParams / 64;
  const double one = CollectiveSeconds(CollectiveOp::kAllGather, shard * 64 / 63, g, links);
  CHECK(ShardBroadcastsSeconds(2 * kBroadcastParams, g, links) == Approx(64 * one));
  CHECK(bc.dp[0].param_gather_s == Approx(64 * one));
  // Against the distributed optimizer's bucketed all-gather: more, because of the latencies.
  CHECK(bc.dp[0].param_gather_s > rs.dp[0].param_gather_s);
  // Not overlapped (broadcast_params(overlap=False), waited before the next forward).
  CHECK(bc.dp[0].gather_exposed_s >= bc.dp[0].param_gather_s);

  // explain lists the bucket all-reduce and the per-rank broadcast, at the time charged.
  const std::vector<CollectiveCall> calls = DescribeCollectives(d, c, links, p, bc);
  int found = 0;
  for (const CollectiveCall& call : calls) {
    if (call.group != "dp") continue;
    ++found;
    CHECK(call.op != "reduce_scatter");
    if (call.op == "all_gather") CHECK(call.seconds * 64 == Approx(bc.dp[0].param_gather_s));
  }
  CHECK(found == 2);

  // A group of one moves nothing; zero=0 ignores the switch.
  CHECK(ShardBroadcastsSeconds(2 * kBroadcastParams, GroupPlacement{}, links) == 0);
  p.zero = 0;
  PlanEvaluation z0a;
  EvaluatePlanTime(d, c, links, p, &z0a);
  p.kernels.zero1_broadcast = false;
  PlanEvaluation z0b;
  EvaluatePlanTime(d, c, links, p, &z0b);
  CHECK(z0a.dp[0].grad_s == z0b.dp[0].grad_s);
  CHECK(z0a.dp[0].param_gather_s == z0b.dp[0].param_gather_s);
}

TEST_CASE("InternLM's per-rank broadcasts grow with the DP size at fixed bytes",
          "[cost][zero1_broadcast]") {
  // 1,024 ranks pay the ring latency 1,024 times over 1,024 ranks: at the same bytes the sum
  // grows about as dp^2 in latency, so from 128 to 1,024 ranks it must more than double, where
  // one all-gather of the same bytes barely moves.
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const double bytes = 2 * 7e9;  // a 7B model's bf16 parameters
  const GroupPlacement g128 = PlaceGroup(128, 1, c), g1024 = PlaceGroup(1024, 1, c);
  REQUIRE(g1024.size == 1024);
  const double b128 = ShardBroadcastsSeconds(bytes, g128, links);
  const double b1024 = ShardBroadcastsSeconds(bytes, g1024, links);
  const double ag128 = CollectiveSeconds(CollectiveOp::kAllGather, bytes, g128, links);
  const double ag1024 = CollectiveSeconds(CollectiveOp::kAllGather, bytes, g1024, links);
  CHECK(b128 >= ag128);
  CHECK(b1024 > 2 * b128);
  CHECK(ag1024 < 1.5 * ag128);
}
