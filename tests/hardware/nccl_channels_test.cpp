#include "hardware/nccl_channels.h"

#include <catch2/catch.hpp>

#include "../cost/test_specs.h"

using namespace paraplan;

namespace {

Cluster WithChannels(int64_t nvlink, int64_t scaleout) {
  Cluster c = test::DgxH100();
  c.network[0].nccl_channels = nvlink;
  c.network[1].nccl_channels = scaleout;
  return c;
}

}  // namespace

TEST_CASE("NCCL kernels hold one SM per channel, as NCCL sizes them per tier", "[hardware]") {
  const Cluster c = WithChannels(24, 16);
  const GroupPlacement node = PlaceGroup(8, 1, c);   // tp = 8: one NVLink domain
  const GroupPlacement rail = PlaceGroup(16, 8, c);  // dp over 16 nodes, one GPU per node
  const GroupPlacement pair = PlaceGroup(2, 64, c);  // a pipeline neighbour on another node
  REQUIRE(node.tier == 0);
  REQUIRE(rail.tier == 1);
  CHECK(NcclRingChannels(node, c) == 24);
  CHECK(NcclRingChannels(rail, c) == 16);
  CHECK(NcclKernelCtas(CollectiveOp::kReduceScatter, node, c) == 24);
  CHECK(NcclKernelCtas(CollectiveOp::kAllReduce, node, c, /*nvls=*/true) == 16);
  CHECK(NcclKernelCtas(CollectiveOp::kAllGather, rail, c) == 16);
  // p2p channels: pow2Up of the ring channels; one channel pair per network peer.
  CHECK(NcclKernelCtas(CollectiveOp::kAllToAll, node, c) == 32);
  CHECK(NcclKernelCtas(CollectiveOp::kAllToAll, rail, c) == 16);
  CHECK(NcclKernelCtas(CollectiveOp::kSendRecv, PlaceGroup(2, 1, c), c) == 32);
  CHECK(NcclKernelCtas(CollectiveOp::kSendRecv, pair, c) == 2);
}

TEST_CASE("NCCL kernel SMs are unknown without the tier's channels or a peer", "[hardware]") {
  const Cluster c = WithChannels(0, 16);
  CHECK(NcclKernelCtas(CollectiveOp::kAllReduce, PlaceGroup(8, 1, c), c) == 0);
  CHECK(NcclKernelCtas(CollectiveOp::kAllReduce, PlaceGroup(1, 1, c), c) == 0);
  CHECK(NcclKernelCtas(CollectiveOp::kAllReduce, PlaceGroup(16, 1, c), c) == 16);
}
