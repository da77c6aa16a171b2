// Two-hop MoE dispatch (DualPipe, DeepEP; cost/moe_dispatch.h) against hand arithmetic.
#include "cost/moe_dispatch.h"

#include <catch2/catch.hpp>
#include <string>

#include "cost/collective_calls.h"
#include "cost/deepep_rates.h"
#include "cost/layer_cost.h"
#include "cost/plan_evaluation.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// C(a, 8) / C(b, 8), written out.
double Ratio8(double a, double b) {
  double r = 1;
  for (int i = 0; i < 8; ++i) r *= (a - i) / (b - i);
  return r;
}

// DeepSeek-V3's MoE: 256 experts of width 2048, top-8, 8 groups with 4 chosen; h 7168.
ModelSpec DeepSeekMoe() {
  ModelSpec m;
  m.name = "ds-moe";
  m.layers = 4;
  m.hidden = 7168;
  m.heads = 128;
  m.kv_heads = 128;
  m.head_dim = 128;
  m.ffn_hidden = 18432;
  m.vocab = 129280;
  m.seq_len = 4096;
  m.activation = Activation::kSwiglu;
  m.moe = MoeSpec{256, 8, 1, 2048, 0, 1, std::nullopt, 8, 4};
  return m;
}

// H800 nodes: 8 GPUs on 200 GB/s NVLink (per direction), 50 GB/s InfiniBand per GPU.
Cluster Hgx800() {
  return test::Dgx("H800", 80, 3350, 989, 1979, 200, 50);
}

ParallelPlan Ep64(bool deepep) {
  ParallelPlan p;
  p.ep = 64;
  p.dp = 64;
  p.micro_batch = 1;
  p.global_batch = 64;
  p.kernels.moe_deepep = deepep;
  return p;
}

}  // namespace

TEST_CASE("a token's experts reach the expected distinct units", "[cost][moe]") {
  // Two experts of 8, one per GPU: always two GPUs. 1 − C(7,2)/C(8,2) = 1/4 per GPU.
  CHECK(ExpectedUnitsHit(8, 2, 0, 0, 8) == Approx(2.0));
  // 4 GPUs of 2 experts: each GPU missed with C(6,2)/C(8,2) = 15/28.
  CHECK(ExpectedUnitsHit(8, 2, 0, 0, 4) == Approx(4 * (1 - 15.0 / 28)));
  // DeepSeek-V3 over 8 nodes, one group of 32 experts per node, 4 groups chosen: a node's group
  // is chosen with probability 1/2 and then missed by the 8 experts with C(96,8)/C(128,8).
  const double nodes = ExpectedUnitsHit(256, 8, 8, 4, 8);
  CHECK(nodes == Approx(8 * 0.5 * (1 - Ratio8(96, 128))));
  CHECK(nodes == Approx(3.62).epsilon(0.01));  // at most 4 nodes (report §2.1.2)
  // Without the group limit the 8 experts fall on ~5.3 of the 8 nodes.
  const double free_nodes = ExpectedUnitsHit(256, 8, 0, 0, 8);
  CHECK(free_nodes == Approx(8 * (1 - Ratio8(224, 256))));
  CHECK(free_nodes > 5.2);
  // Over 64 GPUs of 4 experts, each group spans 8 GPUs.
  CHECK(ExpectedUnitsHit(256, 8, 8, 4, 64) == Approx(64 * 0.5 * (1 - Ratio8(124, 128))));
  // Two groups per unit (16 groups, 8 chosen, over 8 nodes): j of a node's 2 groups chosen is
  // hypergeometric, P(0) = C(14,8)/C(16,8) = 0.1333..., P(1) = 2·C(14,7)/C(16,8) = 0.5333...
  const double p0 = 3003.0 / 12870, p1 = 2 * 3432.0 / 12870, p2 = 1 - p0 - p1;
  const double two = ExpectedUnitsHit(256, 8, 16, 8, 8);
  CHECK(two == Approx(8 * (p1 * (1 - Ratio8(112, 128)) + p2 * (1 - Ratio8(96, 128)))));
  // Groups that do not align with the units are read as no limit.
  CHECK(ExpectedUnitsHit(12, 2, 3, 2, 4) == Approx(ExpectedUnitsHit(12, 2, 0, 0, 4)));
  CHECK(ExpectedUnitsHit(0, 2, 0, 0, 4) == 0);
}

TEST_CASE("two-hop dispatch sends one copy per node on the network", "[cost][moe]") {
  const CostGraph d = BuildCostGraph(DeepSeekMoe());
  const Cluster c = Hgx800();
  const PlanShape s = MakePlanShape(d, Ep64(true), c);
  REQUIRE(s.groups.ep.size == 64);
  REQUIRE(s.groups.ep.members[0] == 8);
  const double tokens = 4096, bytes = 2 * 7168.0;
  const TwoHopTraffic t = TwoHopBytes(d, tokens, bytes, s.groups.ep);
  const double nodes = ExpectedUnitsHit(256, 8, 8, 4, 8), gpus = ExpectedUnitsHit(256, 8, 8, 4, 64);
  CHECK(t.network_bytes == Approx(tokens * nodes * 7.0 / 8 * bytes));
  CHECK(t.nvlink_bytes == Approx(tokens * gpus * 7.0 / 8 * bytes));
  // The alltoall dispatcher sends 8 copies a token, 7/8 of them off the node: ~2.2x the bytes.
  CHECK(tokens * 8 * 7.0 / 8 * bytes / t.network_bytes > 2.1);
  // The network leg (50 GB/s at 0.8) is the slower one here.
  const NetworkLinks links = ResolveNetworkLinks(c);
  const double network_s = t.network_bytes / links.At(CollectiveOp::kAllToAll, 1).bytes_per_s;
  CHECK(t.nvlink_bytes / links.At(CollectiveOp::kAllToAll, 0).bytes_per_s < network_s);
  CHECK(TwoHopSeconds(t, s.groups.ep, links) ==
        Approx(links.At(CollectiveOp::kAllToAll, 1).latency_s + network_s));
  // One node: NVLink only, one copy per other GPU a token reaches.
  ParallelPlan p8 = Ep64(true);
  p8.ep = 8;
  p8.dp = 8;
  const PlanShape s8 = MakePlanShape(d, p8, c);
  const TwoHopTraffic t8 = TwoHopBytes(d, tokens, bytes, s8.groups.ep);
  CHECK(t8.network_bytes == 0);
  CHECK(t8.nvlink_bytes == Approx(tokens * ExpectedUnitsHit(256, 8, 8, 4, 8) * 7.0 / 8 * bytes));
}

TEST_CASE("DeepEP's dispatch costs a cross-node MoE layer less than the NCCL all-to-all",
          "[cost][moe]") {
  const CostGraph d = BuildCostGraph(DeepSeekMoe());
  const Cluster c = Hgx800();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const int moe = 1;
  const PlanShape flat = MakePlanShape(d, Ep64(false), c);
  const PlanShape deepep = MakePlanShape(d, Ep64(true), c);
  const LayerCost a = ComputeLayerCost(d, moe, flat, c, links);
  const LayerCost b = ComputeLayerCost(d, moe, deepep, c, links);
  REQUIRE(a.ep_comm_s > 0);
  CHECK(b.ep_comm_s < 0.6 * a.ep_comm_s);
  CHECK(b.ep_comm_s > 0.3 * a.ep_comm_s);
  // explain's collective table names the two-hop pass and its time.
  PlanEvaluation e;
  EvaluatePlanTime(d, c, links, Ep64(true), &e);
  const auto calls = DescribeCollectives(d, c, links, Ep64(true), e);
  bool found = false;
  for (const auto& call : calls) {
    if (call.group != "ep") continue;
    found = true;
    CHECK(call.algorithm == "two-hop");
    const TwoHopTraffic t = TwoHopBytes(d, e.shape.tokens / e.shape.tp * e.shape.moe_load,
                                        2 * 7168.0, e.shape.groups.ep);
    // A dispatch row and a combine row, each at DeepEP's measured rates.
    const bool combine = call.what.find("combine") != std::string::npos;
    const TwoHopRates r =
        TwoHopRatesOf(c, e.shape.groups.ep, DeepEpFractions(e.shape.groups.ep, combine));
    CHECK(call.seconds == Approx(TwoHopSeconds(t, e.shape.groups.ep, links, &r)));
  }
  CHECK(found);
}

TEST_CASE("DeepEP's legs run at their measured fractions of the line rate, not NCCL's",
          "[cost][moe]") {
  const CostGraph d = BuildCostGraph(DeepSeekMoe());
  const Cluster c = Hgx800();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const PlanShape s = MakePlanShape(d, Ep64(true), c);
  const double nvlink = c.network[0].bandwidth_GBps * 1e9, nic = c.network[1].bandwidth_GBps * 1e9;
  const TwoHopRates to = TwoHopRatesOf(c, s.groups.ep, DeepEpFractions(s.groups.ep, false));
  const TwoHopRates back = TwoHopRatesOf(c, s.groups.ep, DeepEpFractions(s.groups.ep, true));
  CHECK(to.nvlink_bytes_per_s == Approx(0.65 * nvlink));
  CHECK(to.network_bytes_per_s == Approx(0.89 * nic));  // 8 nodes (cost/deepep_rates.h)
  CHECK(back.nvlink_bytes_per_s == Approx(0.63 * nvlink));
  CHECK(back.network_bytes_per_s == Approx(0.875 * nic));
  // Inside one node there is no network leg.
  ParallelPlan p8 = Ep64(true);
  p8.ep = 8;
  p8.dp = 8;
  const GroupPlacement ep8 = MakePlanShape(d, p8, c).groups.ep;
  CHECK(TwoHopRatesOf(c, ep8, DeepEpFractions(ep8, false)).network_bytes_per_s == 0);
  // The layer's EP time is the dispatch pass at the dispatch rates plus the combine pass at the
  // combine rates, forward and backward (no overlap in this plan). Over 8 nodes DeepEP's RDMA
  // leg (0.89 / 0.875 of the NIC) outruns this cluster's NCCL all-to-all fraction, and its
  // NVLink leg (0.65 / 0.63) is no longer the slower one, so the pass is shorter.
  const TwoHopPasses hops = TwoHopPassesOf(d, s);
  const double pass = TwoHopSeconds(hops.dispatch, s.groups.ep, links, &to) +
                      TwoHopSeconds(hops.combine, s.groups.ep, links, &back);
  const double at_links = TwoHopSeconds(hops.dispatch, s.groups.ep, links) +
                          TwoHopSeconds(hops.combine, s.groups.ep, links);
  CHECK(pass < at_links);
  CHECK(pass != Approx(at_links));
  const LayerCost l = ComputeLayerCost(d, 1, s, c, links);
  CHECK(l.comm_busy_bwd_s[kCommEp] == Approx(pass));
}

TEST_CASE("the alltoall dispatcher's token counts and the aux loss are small blocking collectives",
          "[cost][moe]") {
  // Mixtral 8x7B (8 experts) at tp 2 with sequence parallelism, ep 8 over two nodes: the forward
  // all-gathers 8 int64 counts from each of the 8 ranks of the tp_ep group (etp 1 x ep 8) and
  // all-reduces 8 fp32 counts over tp 2; the backward has neither.
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.tp = 2;
  p.ep = 8;
  p.dp = 8;
  p.sequence_parallel = true;
  p.micro_batch = 1;
  p.global_batch = 8;
  const PlanShape s = MakePlanShape(d, p, c);
  REQUIRE(s.groups.etp_ep.size == 8);
  REQUIRE(s.groups.tp_cp.size == 2);
  const LayerCost l = ComputeLayerCost(d, 1, s, c, links);
  const double bytes = 2.0 * (s.tokens / 2) * 2 * 4096;  // bf16, t/tp tokens, top-2, h
  const double pass = 2 * CollectiveSeconds(CollectiveOp::kAllToAll, bytes, s.groups.ep, links);
  const double counts =
      CollectiveSeconds(CollectiveOp::kAllGather, 8.0 * 8 * 8, s.groups.etp_ep, links) +
      CollectiveSeconds(CollectiveOp::kAllReduce, 4.0 * 8, s.groups.tp_cp, links);
  CHECK(counts > 0);
  CHECK(l.ep_comm_fwd_s == Approx(pass + counts));
  CHECK(l.ep_comm_s == Approx(2 * pass + counts));
  // Drop-and-pad knows every size: only the aux loss's all-reduce stays.
  p.moe_routing = MoeRouting::kDrop;
  p.kernels.moe_pad_to_capacity = true;
  const PlanShape padded = MakePlanShape(d, p, c);
  const LayerCost lp = ComputeLayerCost(d, 1, padded, c, links);
  const double padded_bytes = 2.0 * (s.tokens / 2) * 2 * 4096 * padded.moe_load;
  CHECK(lp.ep_comm_fwd_s ==
        Approx(2 * CollectiveSeconds(CollectiveOp::kAllToAll, padded_bytes, s.groups.ep, links) +
               CollectiveSeconds(CollectiveOp::kAllReduce, 4.0 * 8, s.groups.tp_cp, links)));
}

TEST_CASE("DualPipe's FP8 recipe dispatches in FP8 and combines in BF16", "[cost][moe]") {
  // DeepSeek-V3 report §3.3.2: the activation before the up-projection is dispatched in FP8 with a
  // scale per 128 elements, both combines stay BF16; backward likewise one FP8 pass, one BF16.
  const CostGraph d = BuildCostGraph(DeepSeekMoe());
  const Cluster c = Hgx800();
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p = Ep64(false);
  p.schedule = Schedule::kDualPipe;
  p.precision = Precision::kFp8;
  const PlanShape s = MakePlanShape(d, p, c);
  const double tokens = s.tokens;  // tp 1, no imbalance
  auto pass = [&](double bytes) {
    return TwoHopSeconds(TwoHopBytes(d, tokens, bytes * 7168, s.groups.ep), s.groups.ep, links);
  };
  const LayerCost fp8 = ComputeLayerCost(d, 1, s, c, links);
  CHECK(fp8.comm_busy_fwd_s[kCommEp] == Approx(pass(1.0 + 4.0 / 128) + pass(2.0)));
  CHECK(fp8.comm_busy_bwd_s[kCommEp] == Approx(pass(1.0 + 4.0 / 128) + pass(2.0)));
  p.precision = Precision::kBf16;
  const LayerCost bf16 = ComputeLayerCost(d, 1, MakePlanShape(d, p, c), c, links);
  CHECK(bf16.comm_busy_fwd_s[kCommEp] == Approx(2 * pass(2.0)));
  CHECK(fp8.comm_busy_fwd_s[kCommEp] < 0.8 * bf16.comm_busy_fwd_s[kCommEp]);
  // explain lists the two passes apart.
  PlanEvaluation e;
  p.precision = Precision::kFp8;
  p.pp = 2;
  p.dp = 32;
  p.global_batch = 64;
  EvaluatePlanTime(d, c, links, p, &e);
  int rows = 0;
  for (const auto& call : DescribeCollectives(d, c, links, p, e)) {
    if (call.group == "ep") ++rows;
  }
  CHECK(rows == 2);
}

TEST_CASE("HybridEP's layer runs the two-hop passes at HybridEP's rates", "[cost][moe]") {
  const CostGraph d = BuildCostGraph(DeepSeekMoe());
  const Cluster c = Hgx800();
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan hybrid = Ep64(false);
  hybrid.kernels.moe_hybridep = true;
  const PlanShape s = MakePlanShape(d, hybrid, c);
  REQUIRE(UsesTwoHop(s));
  REQUIRE(TwoHopEngineOf(s) == TwoHopEngine::kHybridEp);
  const TwoHopPasses hops = TwoHopPassesOf(d, s);
  const TwoHopRates to = TwoHopRatesOf(c, s.groups.ep, HybridEpFractions(s.groups.ep, false));
  const TwoHopRates back = TwoHopRatesOf(c, s.groups.ep, HybridEpFractions(s.groups.ep, true));
  const double pass = TwoHopSeconds(hops.dispatch, s.groups.ep, links, &to) +
                      TwoHopSeconds(hops.combine, s.groups.ep, links, &back);
  const LayerCost l = ComputeLayerCost(d, 1, s, c, links);
  CHECK(l.comm_busy_bwd_s[kCommEp] == Approx(pass));
  // Over 8 nodes HybridEP's one measured combine (0.77 of the NIC, at 2 nodes) is below DeepEP's
  // 8-node point (0.875), so its pass is the longer here: nothing is extrapolated.
  const LayerCost deepep = ComputeLayerCost(d, 1, MakePlanShape(d, Ep64(true), c), c, links);
  CHECK(l.comm_busy_bwd_s[kCommEp] > deepep.comm_busy_bwd_s[kCommEp]);
  // explain names the HybridEP passes.
  PlanEvaluation e;
  EvaluatePlanTime(d, c, links, hybrid, &e);
  bool found = false;
  for (const auto& call : DescribeCollectives(d, c, links, hybrid, e)) {
    found = found || call.what.find("HybridEP") != std::string::npos;
  }
  CHECK(found);
}
