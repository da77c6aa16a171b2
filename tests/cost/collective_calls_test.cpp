#include "cost/collective_calls.h"

#include <catch2/catch.hpp>

#include "test_specs.h"

using namespace paraplan;

TEST_CASE("the collectives a plan issues, with their tiers and NCCL's choice", "[cost]") {
  const ModelSpec m = test::Gpt3_175B();
  Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.tp = 8;
  p.pp = 1;
  p.dp = 16;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 16;
  p.sequence_parallel = true;
  PlanEvaluation e;
  EvaluatePlanTime(d, c, links, p, &e);
  const std::vector<CollectiveCall> calls = DescribeCollectives(d, c, links, p, e);
  REQUIRE(calls.size() == 4);  // tp all-gather + reduce-scatter, ZeRO-3 gather + reduce-scatter
  CHECK(calls[0].group == "tp");
  CHECK(calls[0].tier == "nvlink");
  CHECK(calls[0].per_domain == 8);
  CHECK(calls[0].bytes == Approx(2.0 * 2048 * 12288));  // bf16 activations of one sequence
  CHECK(calls[2].group == "dp");
  CHECK(calls[2].op == "all_gather");
  CHECK(calls[2].tier == "scaleout");
  CHECK(calls[2].per_domain == 1);
  CHECK(calls[2].bytes == Approx(2.0 * e.kinds[0].params_local));  // one layer's bf16 weights
  for (const CollectiveCall& call : calls) {
    CHECK(call.seconds > 0);
    CHECK(call.algorithm != "profile fit");
    // The time shown is the time the cost model charges.
  }
  const GroupPlacement& dp = e.shape.groups.dp_cp;
  CHECK(calls[3].seconds ==
        Approx(CollectiveSeconds(CollectiveOp::kReduceScatter, calls[3].bytes, dp, links)));
}
