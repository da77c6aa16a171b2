// DeepEP's measured rates (cost/deepep_rates.h) and the two-hop model against DeepEP's own
// benchmark table.
#include "cost/deepep_rates.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "cost/plan_evaluation.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// DeepEP's tests/test_internode.py (@ 92fe2de) routing: 256 experts, top-8, one expert group per
// node with the best min(nodes, 4) groups chosen; hidden 7168.
ModelSpec DeepEpTestMoe(int nodes) {
  ModelSpec m;
  m.name = "deepep-test";
  m.layers = 4;
  m.hidden = 7168;
  m.heads = 128;
  m.kv_heads = 128;
  m.head_dim = 128;
  m.ffn_hidden = 18432;
  m.vocab = 129280;
  m.seq_len = 4096;
  m.activation = Activation::kSwiglu;
  m.moe = MoeSpec{256, 8, 1, 2048, 0, 1, std::nullopt, nodes, std::min(nodes, 4)};
  return m;
}

// The "logical" bandwidth DeepEP's test prints for one pass of 4,096 tokens per rank: the bytes
// of one copy per destination node, the own node included, over the pass's time (for one node:
// the copies each rank receives, `recv_x`, over NVLink).
double LogicalGBps(int nodes, bool combine) {
  const CostGraph d = BuildCostGraph(DeepEpTestMoe(nodes));
  const Cluster c = test::Dgx("H800", 80, 3350, 989, 1979, 200, 50);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.ep = 8 * nodes;
  p.dp = 8 * nodes;
  p.micro_batch = 1;
  p.global_batch = 8 * nodes;
  p.kernels.moe_deepep = true;
  const PlanShape s = MakePlanShape(d, p, c);
  const double tokens = 4096;
  // FP8 dispatch (one fp32 scale per 128 elements), BF16 combine, as the table states.
  const double token_bytes = combine ? 2.0 * 7168 : kFp8DispatchBytes * 7168;
  const TwoHopTraffic t = TwoHopBytes(d, tokens, token_bytes, s.groups.ep);
  const TwoHopRates r = TwoHopRatesOf(c, s.groups.ep, DeepEpFractions(s.groups.ep, combine));
  const double seconds = TwoHopSeconds(t, s.groups.ep, links, &r);
  const double copies = nodes > 1 ? ExpectedUnitsHit(256, 8, nodes, std::min(nodes, 4), nodes)
                                  : ExpectedUnitsHit(256, 8, 1, 1, 8);
  return tokens * copies * token_bytes / seconds / 1e9;
}

}  // namespace

TEST_CASE("DeepEP's network fraction follows its measured points by node count",
          "[cost][moe][deepep]") {
  CHECK(DeepEpNicFraction(1, false) == 0);
  CHECK(DeepEpNicFraction(2, false) == Approx(0.85));
  CHECK(DeepEpNicFraction(2, true) == Approx(0.68));
  CHECK(DeepEpNicFraction(4, true) == Approx(0.855));
  CHECK(DeepEpNicFraction(8, false) == Approx(0.89));
  // Between points, linear in log2(nodes): 3 nodes lie 0.585 of the way from 2 to 4.
  CHECK(DeepEpNicFraction(3, true) == Approx(0.68 + std::log2(1.5) * (0.855 - 0.68)));
  // Beyond the last point, its value: no extrapolation.
  CHECK(DeepEpNicFraction(32, true) == Approx(0.875));
  // The groups' fractions: NVLink always, the network by the nodes the group spans.
  const Cluster c = test::Dgx("H100", 80, 3350, 989, 1979, 450, 50);
  const GroupPlacement one = PlaceGroup(8, 1, c), four = PlaceGroup(32, 1, c);
  REQUIRE(one.tier == 0);
  REQUIRE(four.members[0] == 8);
  CHECK(DeepEpFractions(one, false).network == 0);
  CHECK(DeepEpFractions(one, true).nvlink == Approx(0.63));
  CHECK(DeepEpFractions(four, true).network == Approx(0.855));
  CHECK(DeepEpFractions(four, false).nvlink == Approx(0.65));
}

TEST_CASE("the two-hop model reproduces DeepEP's own H800 benchmark table", "[cost][moe][deepep]") {
  // deepseek-ai/DeepEP docs/legacy.md @ dd758ca, "Normal kernels with NVLink and RDMA
  // forwarding" (H800, ~160 GB/s NVLink, CX7 400 Gb/s; 4,096 tokens, hidden 7168, top-4 groups,
  // top-8 experts, FP8 dispatch, BF16 combine), logical GB/s: EP 8 153 / 158 (NVLink), EP 16
  // 43 / 43, EP 32 58 / 57, EP 64 51 / 50 (RDMA). The 4- and 8-node network fractions come from
  // these points, so those two rows check the arithmetic of the routing and the byte count; the
  // one-node and two-node rows are independent: there NVLink binds (H800's 200 GB/s at DeepEP's
  // H100 fractions), not the NIC.
  CHECK(LogicalGBps(1, false) == Approx(153).epsilon(0.06));
  CHECK(LogicalGBps(1, true) == Approx(158).epsilon(0.10));
  CHECK(LogicalGBps(2, false) == Approx(43).epsilon(0.06));
  CHECK(LogicalGBps(2, true) == Approx(43).epsilon(0.06));
  CHECK(LogicalGBps(4, false) == Approx(58).epsilon(0.02));
  CHECK(LogicalGBps(4, true) == Approx(57).epsilon(0.02));
  CHECK(LogicalGBps(8, false) == Approx(51).epsilon(0.02));
  CHECK(LogicalGBps(8, true) == Approx(50).epsilon(0.02));
}

TEST_CASE("HybridEP's two-hop passes run at HybridEP's measured fractions", "[cost][moe][deepep]") {
  const Cluster c = test::Dgx("H100", 80, 3350, 989, 1979, 450, 50);
  const GroupPlacement one = PlaceGroup(8, 1, c), two = PlaceGroup(16, 1, c);
  REQUIRE(two.tier == 1);
  // The AutoModel report's 8-SM figures: 0.71 / 0.71 of NVLink, 0.86 / 0.77 of the NIC.
  CHECK(HybridEpFractions(one, false).nvlink == Approx(0.71));
  CHECK(HybridEpFractions(one, true).network == 0);
  CHECK(HybridEpFractions(two, false).network == Approx(0.86));
  CHECK(HybridEpFractions(two, true).network == Approx(0.77));
  // The engines: HybridEP over DeepEP, DeepEP's curve, the links' rates for DualPipe's kernels.
  CHECK(EngineFractions(TwoHopEngine::kHybridEp, two, true).network == Approx(0.77));
  CHECK(EngineFractions(TwoHopEngine::kDeepEp, two, true).network == Approx(0.68));
  CHECK(EngineFractions(TwoHopEngine::kLinks, two, true).network == 0);
  // Two nodes: HybridEP's combine (0.77 of the NIC) beats DeepEP's (0.68), as measured
  // (76.5 against 68.2 GB/s logical).
  CHECK(EngineFractions(TwoHopEngine::kHybridEp, two, true).network /
            EngineFractions(TwoHopEngine::kDeepEp, two, true).network ==
        Approx(76.5 / 68.2).epsilon(0.01));
}
