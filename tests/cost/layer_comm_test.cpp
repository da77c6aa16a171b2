#include "cost/layer_comm.h"

#include <catch2/catch.hpp>

#include "cost/cost_graph.h"
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
