#include "hardware/collective_cost.h"

#include <catch2/catch.hpp>

#include "../cost/test_specs.h"

using namespace paraplan;

TEST_CASE("nccl-tests bus-bandwidth factors", "[hardware]") {
  // github.com/NVIDIA/nccl-tests doc/PERFORMANCE.md.
  CHECK(BusFactor(CollectiveOp::kAllReduce, 8) == Approx(2.0 * 7 / 8));
  CHECK(BusFactor(CollectiveOp::kAllGather, 8) == Approx(7.0 / 8));
  CHECK(BusFactor(CollectiveOp::kReduceScatter, 4) == Approx(3.0 / 4));
  CHECK(BusFactor(CollectiveOp::kAllToAll, 16) == Approx(15.0 / 16));
  CHECK(BusFactor(CollectiveOp::kSendRecv, 2) == 1.0);
  CHECK(BusFactor(CollectiveOp::kAllReduce, 1) == 0.0);
}

TEST_CASE("latency steps: ring vs tree for all-reduce", "[hardware]") {
  CHECK(LatencySteps(CollectiveOp::kAllReduce, 2) == 2);
  CHECK(LatencySteps(CollectiveOp::kAllReduce, 1024) == 20);  // tree: 2 log2 n
  CHECK(LatencySteps(CollectiveOp::kAllGather, 8) == 7);
}

TEST_CASE("a large all-reduce on one NVLink node runs at bus bandwidth", "[hardware]") {
  Cluster c = test::DgxH100();
  const GroupPlacement g = PlaceGroup(8, 1, c);
  const double bytes = 1e9;
  const double t = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, g, c);
  const double bw = 450e9 * 0.8;
  // NCCL's ring/Simple (no NVLS on this cluster): base 8.4 µs + 2(n-1) = 14 NVLink hops at the
  // cluster's 3 µs, then the bus bytes at the link's bandwidth.
  CHECK(t == Approx(8.4e-6 + 14 * 3e-6 + bytes * 2 * 7 / 8 / bw).epsilon(1e-9));
  // Profile fit replaces the datasheet: time = latency + bus bytes / bandwidth.
  auto profile = std::make_shared<CalibrationProfile>();
  profile->collectives["all_reduce"]["nvlink"] = {20, 360, 0.99, 10};
  c.profile = profile;
  const double fit = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, g, c);
  CHECK(fit == Approx(6 * 20e-6 + bytes * 2 * 7 / 8 / 360e9).epsilon(1e-9));
}

TEST_CASE("DP all-reduce per-GPU time barely grows with N: NCCL turns to the tree", "[hardware]") {
  const Cluster c = test::DgxH100();
  const double bytes = 1e9;
  const double t16 = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, PlaceGroup(16, 8, c), c);
  const double t1024 =
      CollectiveSeconds(CollectiveOp::kAllReduce, bytes, PlaceGroup(1024, 8, c), c);
  CHECK(t1024 > t16);
  // A ring over 1,024 nodes would add 2,046 network hops (20 ms); the tree's 2 log2(nodes) hops
  // cost its 2 / 0.92 bandwidth instead of the ring's 2(n - 1)/n.
  CHECK(t1024 < 1.25 * t16);
}

TEST_CASE("hierarchical all-reduce moves 1/k of the data across the slow tier", "[hardware]") {
  const Cluster c = test::DgxH100();
  const double bytes = 1e9;
  const GroupPlacement packed = PlaceGroup(64, 1, c);  // 8 per node
  const GroupPlacement spread = PlaceGroup(64, 8, c);  // 1 per node
  const double tp = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, packed, c);
  const double ts = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, spread, c);
  CHECK(tp < ts / 4);
}

TEST_CASE("more bandwidth is never slower, NVLS speeds up all-reduce", "[hardware]") {
  Cluster c = test::DgxH100();
  const GroupPlacement g = PlaceGroup(32, 1, c);
  const double base = CollectiveSeconds(CollectiveOp::kAllReduce, 1e8, g, c);
  c.network[1].bandwidth_GBps *= 2;
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 1e8, g, c) <= base);
  c.network[1].oversubscription = 4;
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 1e8, g, c) > base);
  Cluster n = test::DgxH100();
  const GroupPlacement node = PlaceGroup(8, 1, n);
  const double ring = CollectiveSeconds(CollectiveOp::kAllReduce, 1e9, node, n);
  n.network[0].nvls = true;
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 1e9, node, n) < ring);
}

TEST_CASE("a slow third tier hurts a DP group that spans it", "[hardware]") {
  Cluster c = test::DgxH100();
  c.network[1].span = 512;
  c.network.push_back({"dci", 65536, 0.1, 2000, 1.0, false});  // 0.1 GB/s per GPU
  const double inside = CollectiveSeconds(CollectiveOp::kAllReduce, 1e9, PlaceGroup(64, 8, c), c);
  const double across = CollectiveSeconds(CollectiveOp::kAllReduce, 1e9, PlaceGroup(128, 8, c), c);
  CHECK(across > 2 * inside);
}

TEST_CASE("resolved network links give the cluster's collective times exactly", "[hardware]") {
  Cluster c = test::DgxH100();
  auto profile = std::make_shared<CalibrationProfile>();
  profile->collectives["all_gather"]["scaleout"] = {15, 40, 0.99, 10};
  c.profile = profile;
  const NetworkLinks links = ResolveNetworkLinks(c);
  CHECK(links.tiers == 2);
  CHECK(links.At(CollectiveOp::kAllGather, 1).measured);
  CHECK_FALSE(links.At(CollectiveOp::kAllReduce, 1).measured);
  const CollectiveOp ops[] = {CollectiveOp::kAllReduce, CollectiveOp::kAllGather,
                              CollectiveOp::kReduceScatter, CollectiveOp::kAllToAll,
                              CollectiveOp::kSendRecv};
  for (CollectiveOp op : ops) {
    for (int64_t size : {1, 2, 8, 64}) {
      for (int64_t stride : {1, 4, 16}) {
        const GroupPlacement g = PlaceGroup(size, stride, c);
        // Same formula on the same numbers: equal to the last bit.
        CHECK(CollectiveSeconds(op, 3e8, g, links) == CollectiveSeconds(op, 3e8, g, c));
      }
    }
  }
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 1e9, PlaceGroup(8, 1, c),
                          ResolveNetworkLinks(Cluster{})) == 0.0);
}
