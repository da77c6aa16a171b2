#include "cost/zero3_fetch.h"

#include <catch2/catch.hpp>

#include "cost/collective_calls.h"
#include "cost/plan_evaluation.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

struct FetchCount {
  int fwd = 0, bwd = 0, fwd_on_demand = 0, bwd_on_demand = 0;
};

FetchCount CountOf(const std::vector<FetchGather>& gathers) {
  FetchCount c;
  for (const FetchGather& g : gathers) {
    (g.forward ? c.fwd : c.bwd) += 1;
    if (g.on_demand) (g.forward ? c.fwd_on_demand : c.bwd_on_demand) += 1;
  }
  return c;
}

// Megatron's GPT layer at tp 1: QKV 3h², out-projection h², fc1 and fc2 4h² each.
std::vector<double> GptModules(double h) {
  return {3 * h * h, h * h, 4 * h * h, 4 * h * h};
}

}  // namespace

TEST_CASE("DeepSpeed's coordinator: modules under its limits are prefetched, one pass each",
          "[cost][zero3_fetch]") {
  // 175B (h 12288, 96 layers) under the Azure recipe's 3e9 limits: the recompute's gathers serve
  // the backward (every module is reused within 3e9 elements), nothing waits; the last layer's
  // modules may stay gathered from the forward into its recompute.
  const DeepSpeedFetchSettings azure{3e9, 3e9, 5e7, 1e5};
  const FetchCount c175 = CountOf(DeepSpeedStackFetch(GptModules(12288), 96, azure, true));
  CHECK(c175.fwd == 4 * 96);
  CHECK(c175.bwd <= 4 * 96);
  CHECK(c175.bwd >= 4 * 96 - 4);
  CHECK(c175.fwd_on_demand + c175.bwd_on_demand == 0);
  // Without recompute the backward gathers every module again (the forward's are released),
  // but for the last layers, within the 1e9 default reuse distance of their backward (a layer
  // of 2e8 elements passes twice, forward and backward: about the last three layers' modules).
  const FetchCount plain = CountOf(DeepSpeedStackFetch(GptModules(4096), 32, {}, false));
  CHECK(plain.fwd == 4 * 32);
  CHECK(plain.bwd < 4 * 32);
  CHECK(plain.bwd >= 4 * 32 - 12);
  CHECK(plain.fwd_on_demand + plain.bwd_on_demand == 0);
}

TEST_CASE("DeepSpeed's coordinator re-gathers what lies beyond the reuse distance",
          "[cost][zero3_fetch]") {
  // 1T (h 25600, 128 layers) at 3e9: between its recompute and its backward, QKV sees 1.2e10
  // elements of the trace, the out-projection 1.05e10, fc1 5.2e9 (fc2's two uses): all three
  // gathered again; fc2's uses are adjacent. Every module stays under the live limit, so all are
  // prefetched.
  const DeepSpeedFetchSettings azure{3e9, 3e9, 5e7, 1e5};
  const FetchCount c1t = CountOf(DeepSpeedStackFetch(GptModules(25600), 128, azure, true));
  CHECK(c1t.fwd == 4 * 128);
  CHECK(c1t.bwd <= 7 * 128);
  CHECK(c1t.bwd >= 7 * 128 - 4);
  CHECK(c1t.fwd_on_demand + c1t.bwd_on_demand == 0);
  // A reuse distance past the layer's recompute and backward (1.2e10) with room to hold it all
  // keeps every weight from the recompute to the backward.
  const FetchCount wide =
      CountOf(DeepSpeedStackFetch(GptModules(25600), 128, {1e11, 1.3e10, 5e7, 1e5}, true));
  CHECK(wide.bwd <= 4 * 128);
  CHECK(wide.fwd_on_demand + wide.bwd_on_demand == 0);
}

TEST_CASE("DeepSpeed's coordinator prefetches nothing past its live-parameter limit",
          "[cost][zero3_fetch]") {
  // 2T (h 32768, 160 layers) at 3e9: QKV (3.2e9) and fc1, fc2 (4.3e9) alone exceed the limit,
  // so after each of them the next module's gather is issued on demand: the out-projection, fc2
  // and the next layer's QKV in the forward; only fc1 is prefetched (after the 1.1e9
  // out-projection). The first layer's QKV is the pass's first gather (not counted on demand).
  const DeepSpeedFetchSettings azure{3e9, 3e9, 5e7, 1e5};
  const std::vector<FetchGather> g = DeepSpeedStackFetch(GptModules(32768), 160, azure, true);
  const FetchCount c2t = CountOf(g);
  CHECK(c2t.fwd == 4 * 160);
  CHECK(c2t.fwd_on_demand == 3 * 160 - 1);
  CHECK(c2t.bwd_on_demand > 160);
  int fc1_prefetched = 0;
  for (const FetchGather& x : g) {
    fc1_prefetched += x.forward && x.elements == 4 * 32768.0 * 32768.0 && !x.on_demand;
  }
  CHECK(fc1_prefetched == 160);
}

TEST_CASE("Persistent parameters are never gathered", "[cost][zero3_fetch]") {
  const std::vector<FetchGather> g = DeepSpeedStackFetch({5e4, 1e8, 5e4}, 20, {}, false);
  CHECK(CountOf(g).fwd == 20);
  for (const FetchGather& x : g) CHECK(x.elements == 1e8);
  CHECK(DeepSpeedStackFetch({}, 4, {}, true).empty());
  CHECK(DeepSpeedStackFetch({1e8}, 0, {}, true).empty());
}

TEST_CASE("A DeepSpeed ZeRO-3 plan pays its re-gathers in the step", "[cost][zero3_fetch]") {
  const ModelSpec m = test::Gpt3_175B();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 64;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 64;
  p.recompute = Recompute::kFull;
  PlanEvaluation fsdp;
  EvaluatePlanTime(d, c, links, p, &fsdp);
  CHECK(fsdp.dp[0].zero3.gather_bwd_s == Approx(fsdp.dp[0].zero3.gather_s));
  p.kernels.zero3_max_live_params = 1e9;     // DeepSpeed's defaults: 175B's QKV, out and fc1
  p.kernels.zero3_max_reuse_distance = 1e9;  // lie beyond 1e9 elements of their backward
  PlanEvaluation ds;
  EvaluatePlanTime(d, c, links, p, &ds);
  CHECK(ds.dp[0].zero3.gather_bwd_s > 1.5 * ds.dp[0].zero3.gather_s);
  CHECK(ds.dp[0].zero3.reduce_scatter_s == Approx(fsdp.dp[0].zero3.reduce_scatter_s));
  CHECK(ds.comm[0].zero3_s >= fsdp.comm[0].zero3_s);
}

TEST_CASE("explain lists the coordinator's gathers as the step charges them",
          "[cost][zero3_fetch]") {
  const ModelSpec m = test::Gpt3_175B();  // 96 layers of QKV, out, fc1, fc2
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 64;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 64;
  p.recompute = Recompute::kFull;
  p.kernels.zero3_max_live_params = 1e9;
  PlanEvaluation e;
  EvaluatePlanTime(d, c, links, p, &e);
  const std::vector<CollectiveCall> calls = DescribeCollectives(d, c, links, p, e);
  REQUIRE(!calls.empty());
  const CollectiveCall& last = calls.back();
  // At 1e9 the forward (4 × 96), the recompute (4 × 96) and the re-gathers of QKV, out and fc1
  // (3 × 96: the last layer's fc2 is 1.2e9 elements from its recompute, so nothing is kept);
  // every module is under 1e9 elements.
  CHECK_THAT(last.what, Catch::StartsWith("DeepSpeed's coordinator, as charged: 1056 module "));
  CHECK_THAT(last.what, Catch::Contains(" 0 on demand"));
  CHECK(last.op == "all_gather");
  p.kernels = KernelRecipe{};  // FSDP's unit model: no such row
  EvaluatePlanTime(d, c, links, p, &e);
  const std::vector<CollectiveCall> fsdp = DescribeCollectives(d, c, links, p, e);
  CHECK(fsdp.size() + 1 == calls.size());
}
