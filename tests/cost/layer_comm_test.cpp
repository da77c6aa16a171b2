#include "cost/layer_comm.h"

#include <catch2/catch.hpp>

#include "cost/cost_graph.h"
#include "cost/torchao_float8.h"
#include "hardware/collective_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

LayerCost CommOf(const ParallelPlan& plan, const TpBlock& block) {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  const PlanShape s = MakePlanShape(d, plan, c);
  LayerCost out;
  LayerCommunication(d, 0, s, ResolveNetworkLinks(c), c, block, block, 1e-3, 2.5e-3, out);
  return out;
}

ParallelPlan Tp(int64_t tp, bool overlap) {
  ParallelPlan p;
  p.tp = tp;
  p.micro_batch = 1;
  p.sequence_parallel = tp > 1;
  p.overlap_tp_comm = overlap;
  return p;
}

}  // namespace

TEST_CASE("A layer on one GPU communicates nothing", "[cost]") {
  const LayerCost out = CommOf(Tp(1, false), TpBlock{1e-3, 5e-4});
  CHECK(out.tp_comm_s == 0);
  CHECK(out.cp_comm_s == 0);
  CHECK(out.ep_comm_s == 0);
  CHECK(out.net_fwd_s == 0);
}

TEST_CASE("TP's pairs are exposed whole without overlap, at most all of them with it", "[cost]") {
  const TpBlock block{1e-3, 5e-4};
  const LayerCost plain = CommOf(Tp(8, false), block);
  REQUIRE(plain.tp_comm_fwd_s > 0);
  // A dense layer: two all-gather + reduce-scatter pairs forward, two backward.
  CHECK(plain.tp_comm_s == Approx(2 * plain.tp_comm_fwd_s));
  CHECK(plain.comm_busy_fwd_s[kCommTp] == Approx(plain.tp_comm_fwd_s));
  const LayerCost overlapped = CommOf(Tp(8, true), block);
  CHECK(overlapped.tp_comm_s < plain.tp_comm_s);
  // The busy time is the same collectives, hidden or not; at least one chunk of tp stays out.
  CHECK(overlapped.comm_busy_fwd_s[kCommTp] == Approx(plain.comm_busy_fwd_s[kCommTp]));
  CHECK(overlapped.tp_comm_fwd_s >= plain.tp_comm_fwd_s / 8 * (1 - 1e-12));
}

TEST_CASE("PyTorch's async TP leaves the backward's reduce-scatters to NCCL", "[cost]") {
  // GEMMs long enough to hide any collective: what stays exposed is the pass's rule alone.
  const TpBlock block{1.0, 0.5};
  ParallelPlan p = Tp(8, true);
  const LayerCost te = CommOf(p, block);
  p.kernels.fusion = Fusion::kCompile;
  const LayerCost pt = CommOf(p, block);
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  const PlanShape s = MakePlanShape(d, p, c);
  const NetworkLinks links = ResolveNetworkLinks(c);
  const double elems = s.tokens * d.hidden;
  const double ag = CollectiveSeconds(CollectiveOp::kAllGather,
                                      TpAllGatherBytesPerElement(s) * elems, s.groups.tp, links);
  const double rs = CollectiveSeconds(CollectiveOp::kReduceScatter, 2 * elems, s.groups.tp, links);
  // Forward: both collectives of each block fused, one chunk of eight exposed, as TE's.
  CHECK(pt.tp_comm_fwd_s == Approx(2 * (ag + rs) / 8));
  CHECK(pt.tp_comm_fwd_s == Approx(te.tp_comm_fwd_s));
  // Backward: the output gradient's all-gather fused (one chunk out), the reduce-scatter of the
  // summed column dgrads whole (torch's micro_pipeline_tp pass needs a matmul producer).
  CHECK(pt.tp_comm_s - pt.tp_comm_fwd_s == Approx(2 * (ag / 8 + rs)));
  CHECK(te.tp_comm_s - te.tp_comm_fwd_s == Approx(2 * (ag + rs) / 8));
}

TEST_CASE("Full recompute replays the forward's communication in the backward", "[cost]") {
  LayerCost out = CommOf(Tp(8, false), TpBlock{1e-3, 5e-4});
  const LayerCost before = out;
  RecomputedCommunication(out);
  CHECK(out.tp_comm_s == Approx(before.tp_comm_s + before.tp_comm_fwd_s));
  CHECK(out.tp_comm_fwd_s == before.tp_comm_fwd_s);
  CHECK(out.comm_busy_bwd_s[kCommTp] ==
        Approx(before.comm_busy_bwd_s[kCommTp] + before.comm_busy_fwd_s[kCommTp]));
  CHECK(out.net_bwd_s == Approx(before.net_bwd_s + before.net_fwd_s));
}
