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
  // tp all-gather + reduce-scatter, ZeRO-3 gather + reduce-scatter, then a gather and a
  // reduce-scatter row for each of DeepSpeed ZeRO-3, FSDP1 and FSDP2 (zero3_schedule.h).
  REQUIRE(calls.size() == 10);
  CHECK(calls[4].what.rfind("DeepSpeed ZeRO-3: ", 0) == 0);
  CHECK(calls[6].what.rfind("PyTorch FSDP1: ", 0) == 0);
  CHECK(calls[9].what.rfind("PyTorch FSDP2: ", 0) == 0);
  CHECK(calls[9].op == "reduce_scatter");
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

TEST_CASE("PyTorch's ring lists its fp32 gradient pass beside the K/V pass", "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // 64 q / 8 kv heads x 128, 8192 tokens
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.tp = 1;
  p.cp = 8;
  p.dp = 1;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.kernels.fusion = Fusion::kCompile;
  const auto cp_calls = [&] {
    PlanEvaluation e;
    EvaluatePlanTime(d, c, links, p, &e);
    std::vector<CollectiveCall> out;
    for (const CollectiveCall& call : DescribeCollectives(d, c, links, p, e)) {
      if (call.group == "cp") out.push_back(call);
    }
    return out;
  };
  const double kv_bytes = 2.0 * 1024 * 8 * 256;  // bf16 K and V of 1024 local tokens, 8 heads
  std::vector<CollectiveCall> calls = cp_calls();
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].bytes == Approx(kv_bytes));
  CHECK(calls[1].what == "dK/dV ring step (fp32), cp per backward");
  CHECK(calls[1].bytes == Approx(2 * kv_bytes));
  p.kernels.repeat_kv = true;  // torchtitan's Llama: the 64 query heads travel
  calls = cp_calls();
  REQUIRE(calls.size() == 2);
  CHECK(calls[0].bytes == Approx(8 * kv_bytes));
  p.kernels.fusion = Fusion::kTe;  // Megatron-LM: the gradients ride the K/V ring's row
  p.kernels.repeat_kv = false;
  CHECK(cp_calls().size() == 1);
}
