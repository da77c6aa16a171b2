#include <catch2/catch.hpp>

#include "../cost/test_specs.h"
#include "hardware/collective_cost.h"
#include "hardware/group_placement.h"
#include "plan/placement.h"

using namespace paraplan;

// DgxH100: tier 0 = 8-GPU NVLink node, tier 1 = scale-out. Rank r sits in node r / 8.

TEST_CASE("a pipeline hop inside a node stays on NVLink, one across nodes takes the network",
          "[hardware]") {
  const Cluster c = test::DgxH100();
  // tp=4, pp=4 on 16 GPUs (tp-cp-dp-pp): stage s holds ranks 4s..4s+3.
  // 0->1: ranks 0-3 -> 4-7, node 0 both; 1->2: 4-7 -> 8-11, node 0 -> node 1; 2->3: node 1 both;
  // the interleaved wrap 3->0: 12-15 -> 0-3, node 1 -> node 0.
  CHECK(PipelineHopTier(4, 4, 0, 1, 16, c) == 0);
  CHECK(PipelineHopTier(4, 4, 1, 2, 16, c) == 1);
  CHECK(PipelineHopTier(4, 4, 2, 3, 16, c) == 0);
  CHECK(PipelineHopTier(4, 4, 3, 0, 16, c) == 1);
  // tp=2, pp=4 on 8 GPUs: every stage in node 0, the wrap too (6-7 -> 0-1).
  for (int64_t b = 0; b < 4; ++b) CHECK(PipelineHopTier(4, 2, b, (b + 1) % 4, 8, c) == 0);
  // tp=8, pp=2: the stride is a whole node, every hop crosses.
  CHECK(PipelineHopTier(2, 8, 0, 1, 16, c) == 1);
  // pp innermost (stride 1) under tp=4: stage s of replica o is rank 4o + s, inside 4o..4o+3.
  for (int64_t b = 0; b < 3; ++b) CHECK(PipelineHopTier(4, 1, b, b + 1, 16, c) == 0);
}

TEST_CASE("a hop crosses when any rank pair of any replica straddles a node", "[hardware]") {
  const Cluster c = test::DgxH100();
  // tp=3, pp=4 on 12 GPUs: stages at 0-2, 3-5, 6-8, 9-11. 0->1: 0-2 -> 3-5, node 0; 1->2:
  // 5 -> 8 crosses; 2->3: 6 -> 9 crosses.
  CHECK(PipelineHopTier(4, 3, 0, 1, 12, c) == 0);
  CHECK(PipelineHopTier(4, 3, 1, 2, 12, c) == 1);
  CHECK(PipelineHopTier(4, 3, 2, 3, 12, c) == 1);
  // tp=3, pp=2, dp=2 (tp-pp-dp): replica 0 at 0-2 -> 3-5 stays in node 0, replica 1 at
  // 6-8 -> 9-11 crosses (6 -> 9): the slowest pair sets the hop.
  CHECK(PipelineHopTier(2, 3, 0, 1, 6, c) == 0);
  CHECK(PipelineHopTier(2, 3, 0, 1, 12, c) == 1);
}

TEST_CASE("a two-rank pair on a tier costs a send on that tier", "[hardware]") {
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const double bytes = 64e6;
  // NVLink 450 GB/s, 3 us; scale-out 50 GB/s, 10 us (test_specs.h, link fraction 1 unless the
  // efficiency says otherwise).
  const double nvlink = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, PairOnTier(0, 4), links);
  const double net = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, PairOnTier(1, 4), links);
  CHECK(nvlink == Approx(3e-6 + bytes / TierBytesPerSecond(c, 0)));
  CHECK(net == Approx(10e-6 + bytes / TierBytesPerSecond(c, 1)));
  CHECK(net > nvlink);
  // PlaceGroup agrees wherever the stride alone decides (a pair of stride 8 crosses nodes).
  CHECK(PlaceGroup(2, 8, c).tier == PairOnTier(1, 8).tier);
}
