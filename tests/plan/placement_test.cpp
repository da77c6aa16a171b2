#include "plan/placement.h"

#include <catch2/catch.hpp>

#include "../cost/test_specs.h"

using namespace paraplan;

TEST_CASE("tp=8 on 8-GPU nodes stays on NVLink, tp=16 goes to scale-out", "[hardware]") {
  const Cluster c = test::DgxH100();
  ParallelPlan p;
  p.tp = 8;
  p.dp = 16;
  PlanPlacement g = PlacePlan(p, c);
  CHECK(g.tp.tier == 0);
  CHECK(g.tp.stride == 1);
  CHECK(g.dp.stride == 8);
  CHECK(g.dp.tier == 1);
  CHECK(g.dp.members[0] == 1);  // one DP rank per node: each GPU uses its own NIC
  p.tp = 16;
  p.dp = 8;
  g = PlacePlan(p, c);
  CHECK(g.tp.tier == 1);
  CHECK(g.tp.members[0] == 8);  // hierarchical: 8 members per node, 2 nodes
}

TEST_CASE("on NVL72 tp=16 stays inside the NVLink domain", "[hardware]") {
  ParallelPlan p;
  p.tp = 16;
  p.dp = 9;
  const PlanPlacement g = PlacePlan(p, test::Nvl72());
  CHECK(g.tp.tier == 0);
  CHECK(g.dp.tier == 1);
  CHECK(g.dp.members[0] == 4);  // 72 / 16 = 4 DP ranks share an NVL72 domain
}

TEST_CASE("placement order changes which group gets the inner tier", "[hardware]") {
  const Cluster c = test::DgxH100();
  ParallelPlan p;
  p.tp = 2;
  p.dp = 4;
  p.pp = 4;
  PlanPlacement g = PlacePlan(p, c);
  CHECK(g.pp.stride == 8);
  CHECK(g.pp.tier == 1);
  p.placement = {ParallelDim::kTp, ParallelDim::kPp, ParallelDim::kCp, ParallelDim::kEp,
                 ParallelDim::kDp};
  g = PlacePlan(p, c);
  CHECK(g.pp.stride == 2);
  CHECK(g.pp.tier == 0);
  CHECK(g.dp.stride == 8);
}

TEST_CASE("expert groups follow Megatron's etp-ep-edp layout", "[hardware]") {
  ParallelPlan p;
  p.tp = 2;
  p.dp = 32;
  p.ep = 8;
  const PlanPlacement g = PlacePlan(p, test::DgxH100());
  CHECK(g.ep.stride == 1);  // etp = 1: experts sit on consecutive ranks
  CHECK(g.ep.tier == 0);
  CHECK(g.edp.size == 8);  // 2 * 32 / 8
  CHECK(g.edp.stride == 8);
}

TEST_CASE("a third tier is paid by groups that span it", "[hardware]") {
  Cluster c = test::DgxH100();
  c.network[1].span = 1024;
  c.network.push_back({"dci", 65536, 5, 1000, 1.0, false});
  const GroupPlacement inside = PlaceGroup(128, 8, c);
  CHECK(inside.tier == 1);
  const GroupPlacement across = PlaceGroup(256, 8, c);
  CHECK(across.tier == 2);
  CHECK(across.members[0] == 1);
  CHECK(across.members[1] == 128);
  CHECK(across.members[2] == 256);
}
