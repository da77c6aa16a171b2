#include "hardware/collective_cost.h"

#include <catch2/catch.hpp>
#include <cmath>

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
  // Profile fit replaces the datasheet: time = latency + bus bytes / bandwidth, the latency being
  // the whole collective's as measured (once, not once per latency step).
  auto profile = std::make_shared<CalibrationProfile>();
  profile->collectives["all_reduce"]["nvlink"] = {20, 360, 0.99, 10, 8, {}};
  c.profile = profile;
  const double fit = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, g, c);
  CHECK(fit == Approx(20e-6 + bytes * 2 * 7 / 8 / 360e9).epsilon(1e-9));
  // Measured on 8 ranks, used on 4: latency steps min(2(n-1), 2 ceil(log2 n)) go 6 -> 4.
  const double four = CollectiveSeconds(CollectiveOp::kAllReduce, bytes, PlaceGroup(4, 1, c), c);
  CHECK(four == Approx(20e-6 * 4 / 6 + bytes * 2 * 3 / 4 / 360e9).epsilon(1e-9));
  // A fit that does not record its rank count (older profiles) is taken at the group's size.
  profile->collectives["all_reduce"]["nvlink"].ranks = 0;
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, bytes, PlaceGroup(4, 1, c), c) ==
        Approx(20e-6 + bytes * 2 * 3 / 4 / 360e9).epsilon(1e-9));
}

TEST_CASE("a measured curve follows the sweep between its sizes, the line outside", "[hardware]") {
  Cluster c = test::DgxH100();
  auto profile = std::make_shared<CalibrationProfile>();
  // nccl-tests' all_reduce_perf on 8 ranks (tests/data/calib/nccl_tests_allreduce_8gpu.csv):
  // the protocol change near 1-2 MiB that one α-β line cannot follow.
  profile->collectives["all_reduce"]["nvlink"] = {
      18.94, 278.06, 0.95, 11, 8, {{524288, 20.39}, {1048576, 27.76}, {2097152, 40.66}}};
  c.profile = profile;
  const GroupPlacement g = PlaceGroup(8, 1, c);
  // At a measured size: the measured time.
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 1048576, g, c) ==
        Approx(27.76e-6).epsilon(1e-9));
  // Between two: linear in (ln size, ln time) -- the geometric mean at the geometric midpoint.
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, std::sqrt(1048576.0 * 2097152.0), g, c) ==
        Approx(std::sqrt(27.76 * 40.66) * 1e-6).epsilon(1e-9));
  // Beyond the sweep: the α-β line.
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 1e9, g, c) ==
        Approx(18.94e-6 + 1e9 * 1.75 / 278.06e9).epsilon(1e-9));
  // Four ranks inside the sweep's bus-byte range: the curve at the same bus bytes, latency scaled
  // by the steps (4 instead of 6).
  const double bytes4 = 1048576.0 * 1.75 / 1.5;  // same bus bytes as 1 MiB on 8 ranks
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, bytes4, PlaceGroup(4, 1, c), c) ==
        Approx((27.76 + 18.94 * (4.0 / 6.0 - 1.0)) * 1e-6).epsilon(1e-9));
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
  profile->collectives["all_gather"]["scaleout"] = {15, 40, 0.99,
                                                    10, 16, {{1 << 20, 60}, {1 << 24, 420}}};
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

TEST_CASE("NcclPicksNvls agrees with ChooseCollective's algorithm", "[hardware]") {
  Cluster c = test::DgxH100();
  int nvls = 0;
  for (bool switch_reduces : {false, true}) {
    c.network[0].nvls = switch_reduces;
    const NetworkLinks links = ResolveNetworkLinks(c);
    for (CollectiveOp op : {CollectiveOp::kAllReduce, CollectiveOp::kAllGather,
                            CollectiveOp::kReduceScatter, CollectiveOp::kAllToAll}) {
      for (int64_t size : {2, 8, 64, 512}) {
        for (int64_t stride : {1, 8}) {
          const GroupPlacement g = PlaceGroup(size, stride, c);
          for (double bytes : {4e3, 1e6, 4e7, 1e9}) {
            const NcclAlgorithm a = ChooseCollective(op, bytes, g, links).algorithm;
            const bool picked = ChooseCollective(op, bytes, g, links).nccl &&
                                (a == NcclAlgorithm::kNvls || a == NcclAlgorithm::kNvlsTree);
            CHECK(NcclPicksNvls(op, bytes, g, links) == picked);
            nvls += picked ? 1 : 0;
          }
        }
      }
    }
  }
  CHECK(nvls > 0);  // the comparison covers calls that take NVLS
}

TEST_CASE("a sweep across nodes is read whole, at the bytes that load each NIC the same",
          "[hardware]") {
  Cluster c = test::DgxH100();
  auto profile = std::make_shared<CalibrationProfile>();
  // nccl-tests all_reduce_perf on 32 nodes x 8 ranks (p5.48xlarge over EFA,
  // hardware/profiles/p5-efa-all-reduce.yaml): the whole two-level collective.
  CollectiveFit sweep{988.125, 275.639, 0.95, 9, 256, {{33554432, 1007.6}, {268435456, 3875.8}}};
  profile->collectives["all_reduce"]["scaleout"] = sweep;
  c.profile = profile;
  // Read per level (inner NVLink level + the sweep at bytes / 8): far below the sweep's own time.
  const GroupPlacement full = PlaceGroup(256, 1, c);
  const double per_level = CollectiveSeconds(CollectiveOp::kAllReduce, 268435456, full, c);
  CHECK(per_level < 0.6 * 3875.8e-6);
  // Recorded as a sweep of 8 ranks per node: the group it measured gets its time back exactly.
  profile->collectives["all_reduce"]["scaleout"].ranks_per_node = 8;
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 268435456, full, c) ==
        Approx(3875.8e-6).epsilon(1e-9));
  // Four ranks per node on 32 nodes (stride 2): each GPU sends bytes / 4 across, as the sweep's
  // GPUs do at twice the bytes.
  const GroupPlacement half = PlaceGroup(128, 2, c);
  REQUIRE(half.members[0] == 4);
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 134217728, half, c) ==
        Approx(3875.8e-6).epsilon(1e-9));
  // Inside one node the sweep does not apply: the NVLink tier's own model, as without a profile.
  const GroupPlacement node = PlaceGroup(8, 1, c);
  Cluster bare = test::DgxH100();
  CHECK(CollectiveSeconds(CollectiveOp::kAllReduce, 268435456, node, c) ==
        Approx(CollectiveSeconds(CollectiveOp::kAllReduce, 268435456, node, bare)).epsilon(1e-12));
}
