#include "hardware/nccl_algorithms.h"

#include <catch2/catch.hpp>
#include <vector>

using namespace paraplan;

namespace {

// NCCL's reference hop latencies (3.4 µs NVLink, 14 µs network for ring/Simple), so every
// (algorithm, protocol) hop is NCCL's table value.
NcclFabric Node(int64_t ranks, int64_t ppn, bool nvls) {
  NcclFabric f;
  f.ranks = ranks;
  f.ppn = ppn;
  f.intra_bytes_per_s = 360e9;
  f.inter_bytes_per_s = 45e9;
  f.nvls = nvls;
  return f;
}

double Seconds(CollectiveOp op, NcclAlgorithm a, NcclProtocol p, double bytes,
               const NcclFabric& f) {
  return NcclPairCost(op, a, p, bytes, f).seconds;
}

constexpr auto kAR = CollectiveOp::kAllReduce;
constexpr auto kAG = CollectiveOp::kAllGather;
constexpr auto kRS = CollectiveOp::kReduceScatter;

}  // namespace

TEST_CASE("ring all-reduce in one node: NCCL's latency and bandwidth terms", "[hardware]") {
  const NcclFabric f = Node(8, 8, false);
  const double s = 64e6;
  // Simple: base 8.4 µs + 2(n-1) = 14 NVLink hops of 3.4 µs; bus bytes 2(n-1)/n at full rate.
  CHECK(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, s, f) ==
        Approx(8.4e-6 + 14 * 3.4e-6 + s * 1.75 / 360e9));
  // LL: base 6.6 + 14 × 0.6 µs, a quarter of the bandwidth (all-reduce).
  CHECK(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL, s, f) ==
        Approx(6.6e-6 + 14 * 0.6e-6 + s * 1.75 / (360e9 / 4)));
  // LL128: base 14 + 14 × 1.9 µs, 0.92 of the bandwidth.
  CHECK(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL128, s, f) ==
        Approx(14e-6 + 14 * 1.9e-6 + s * 1.75 / (360e9 * 0.92)));
}

TEST_CASE("all-gather and reduce-scatter rings take n-1 steps, LL is a third", "[hardware]") {
  const NcclFabric f = Node(8, 8, false);
  const double s = 8e6;
  CHECK(Seconds(kAG, NcclAlgorithm::kRing, NcclProtocol::kSimple, s, f) ==
        Approx(8.4e-6 + 7 * 3.4e-6 + s * 7 / 8 / 360e9));
  CHECK(Seconds(kRS, NcclAlgorithm::kRing, NcclProtocol::kLL, s, f) ==
        Approx(6.6e-6 + 7 * 0.6e-6 + s * 7 / 8 / (360e9 / 3)));
  CHECK(Seconds(kAG, NcclAlgorithm::kTree, NcclProtocol::kSimple, s, f) < 0);  // all-reduce only
}

TEST_CASE("ring across nodes: network steps and the node's NICs", "[hardware]") {
  // 4 nodes × 8 GPUs: 2(n-1) = 62 steps, 2 × nodes = 8 of them on the network; the NVLink steps
  // cost at least the 3 µs network post overhead (Simple: 3 × 1 µs) and 3.4 µs is more. At 256 MB
  // (over 64 bytes per channel and rank) Simple pays the ring's 1.4 plateau on its latency.
  const NcclFabric f = Node(32, 8, false);
  const double s = 256e6;
  const double bus = std::min(360e9, 8 * 45e9);
  CHECK(NcclChannelBytesPerSecond(f) == Approx(bus));
  CHECK(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, s, f) ==
        Approx(1.4 * (8.4e-6 + 54 * 3.4e-6 + 8 * 14e-6) + s * 2 * 31 / 32 / bus));
  // LL's NVLink hop 0.6 µs is raised to the 1 µs post overhead.
  CHECK(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL, s, f) ==
        Approx(6.6e-6 + 54 * 1.0e-6 + 8 * 2.7e-6 + s * 2 * 31 / 32 / (bus / 4)));
  // One GPU per node (a DP group across rails): its one NIC, LL128 at 0.7.
  const NcclFabric rail = Node(16, 1, false);
  CHECK(NcclChannelBytesPerSecond(rail) == Approx(45e9));
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL128, s, rail).algo_bytes_per_s ==
        Approx(45e9 * 0.7 / (2.0 * 15 / 16)));
}

TEST_CASE("tree all-reduce: log2(nodes) network hops, twice the payload", "[hardware]") {
  // 32 MB = 64 × 2^18.9: treeCorrectionFactor's column 18 (LL .9, LL128 .9, Simple .7).
  const NcclFabric f = Node(64, 8, false);  // 8 nodes
  const double s = 32e6;
  const double bus = 360e9 * 0.92;
  CHECK(Seconds(kAR, NcclAlgorithm::kTree, NcclProtocol::kSimple, s, f) ==
        Approx(0 + 2 * (7 * 28e-6 + 3 * 28e-6) + 2 * s / (bus * 0.7)));
  CHECK(Seconds(kAR, NcclAlgorithm::kTree, NcclProtocol::kLL, s, f) ==
        Approx(6.8e-6 + 2 * (7 * 0.6e-6 + 3 * 5.0e-6) + 2 * s / (bus / 3.8 * 0.9)));
  CHECK(Seconds(kAR, NcclAlgorithm::kTree, NcclProtocol::kLL128, s, f) ==
        Approx(14e-6 + 2 * (7 * 1.25e-6 + 3 * 8.5e-6) + 2 * s / (bus * 120 / 128 * 0.9)));
  // From 512 MiB (64 × 2^23) the correction is 1.
  const double big = 1e9;
  CHECK(Seconds(kAR, NcclAlgorithm::kTree, NcclProtocol::kSimple, big, f) ==
        Approx(2 * (7 * 28e-6 + 3 * 28e-6) + 2 * big / bus));
}

TEST_CASE("NVLS in one NVSwitch domain, NVLS-tree across, PAT at one GPU per node", "[hardware]") {
  const double s = 128e6;
  const NcclFabric node = Node(8, 8, true);
  // NVLS: one 23 µs NVLink step, 6/5 of the payload per GPU; all-gather and reduce-scatter too.
  CHECK(Seconds(kAR, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, node) ==
        Approx(23e-6 + s * 1.2 / 360e9));
  CHECK(Seconds(kAG, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, node) > 0);
  CHECK(Seconds(kRS, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, node) > 0);
  CHECK(Seconds(kAR, NcclAlgorithm::kNvls, NcclProtocol::kLL, s, node) < 0);  // Simple only
  CHECK(Seconds(kAR, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, Node(8, 8, false)) < 0);
  // NVLS-tree over 4 nodes: 23 µs + 2 log2(4) network hops of 14 µs, NICs at half rate.
  const NcclFabric four = Node(32, 8, true);
  CHECK(Seconds(kAR, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, four) < 0);
  CHECK(Seconds(kAR, NcclAlgorithm::kNvlsTree, NcclProtocol::kSimple, s, four) ==
        Approx(23e-6 + 4 * 14e-6 + s * 1.2 / std::min(360e9, 8 * 45e9 / 2)));
  // PAT (tuning.cc, NCCL 2.23 on): all-gather at one GPU per node over 16 nodes, 8 µs base +
  // log2(16) = 4 network hops at 14 / 3.5 µs + 2.8 µs per rank; 0.75 of the NIC's bandwidth.
  const NcclFabric rail = Node(16, 1, false);
  CHECK(Seconds(kAG, NcclAlgorithm::kPat, NcclProtocol::kSimple, s, rail) ==
        Approx(8e-6 + 4 * 4e-6 + 16 * 2.8e-6 + s * 15 / 16 / (45e9 * 0.75)));
  CHECK(Seconds(kAG, NcclAlgorithm::kPat, NcclProtocol::kSimple, s, Node(16, 2, false)) < 0);
  CHECK(Seconds(kAR, NcclAlgorithm::kPat, NcclProtocol::kSimple, s, rail) < 0);
}

TEST_CASE("NCCL's choice: LL when latency rules, Simple or NVLS when bandwidth does",
          "[hardware]") {
  const NcclFabric node = Node(8, 8, true);
  const NcclCost tiny = NcclFastest(kAR, 4096, node);
  CHECK(tiny.protocol == NcclProtocol::kLL);
  const NcclCost big = NcclFastest(kAR, 1e9, node);
  CHECK(big.algorithm == NcclAlgorithm::kNvls);
  const NcclCost ring = NcclFastest(kAR, 1e9, Node(8, 8, false));
  CHECK(ring.algorithm == NcclAlgorithm::kRing);
  CHECK(ring.protocol == NcclProtocol::kSimple);
  // Mid-size all-reduce over 128 nodes: the tree's log depth beats the ring's 254 steps.
  const NcclCost mid = NcclFastest(kAR, 4e6, Node(128, 1, false));
  CHECK(mid.algorithm == NcclAlgorithm::kTree);
  // All-gathers at one GPU per node over 1,024 nodes: PAT at 16 MB; at 1 MB its 2.8 µs per rank
  // (2.9 ms) is no better than the ring's LL (1,023 hops of 2.7 µs), as in NCCL's own model.
  CHECK(NcclFastest(kAG, 16e6, Node(1024, 1, false)).algorithm == NcclAlgorithm::kPat);
  CHECK(NcclFastest(kAG, 1e6, Node(1024, 1, false)).algorithm == NcclAlgorithm::kRing);
  // The fastest is never slower than any pair.
  for (int a = 0; a < kNcclAlgorithms; ++a) {
    for (int p = 0; p < kNcclProtocols; ++p) {
      const NcclCost c =
          NcclPairCost(kAR, static_cast<NcclAlgorithm>(a), static_cast<NcclProtocol>(p), 1e7, node);
      if (c.seconds >= 0) CHECK(NcclFastest(kAR, 1e7, node).seconds <= c.seconds);
    }
  }
  CHECK(NcclFastest(kAR, 1e6, Node(1, 1, true)).seconds == 0);
}

TEST_CASE("latency grows with the rank count and the cluster's hop latency", "[hardware]") {
  NcclFabric small = Node(64, 8, false), large = Node(4096, 8, false);
  CHECK(NcclFastest(kAG, 1e6, large).latency_s > NcclFastest(kAG, 1e6, small).latency_s);
  // A cluster file's 3 µs NVLink hop scales every NVLink hop by 3/3.4.
  NcclFabric scaled = Node(8, 8, false);
  scaled.intra_hop_us = 3.0;
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL, 1e3, scaled).latency_s ==
        Approx((6.6 + 14 * 0.6 * 3.0 / 3.4) * 1e-6));
}

TEST_CASE("NCCL's size terms: the ring's plateau from 64 bytes per channel and rank",
          "[hardware]") {
  // tuning.cc ncclTopoGetAlgoTime: ring/Simple all-reduce across nodes pays 1.4 × its latency
  // once bytes / (channels × ranks) >= 64; 16 channels × 128 ranks × 64 = 131,072 bytes.
  NcclFabric f = Node(128, 8, false);
  f.channels = 16;
  const double lat =
      NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, 131071, f).latency_s;
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, 131072, f).latency_s ==
        Approx(1.4 * lat));
  // Not in one node, not for all-gather, not for LL.
  const NcclFabric node = Node(8, 8, false);
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, 1e9, node).latency_s ==
        Approx(8.4e-6 + 14 * 3.4e-6));
  CHECK(NcclPairCost(kAG, NcclAlgorithm::kRing, NcclProtocol::kSimple, 1e9, f).latency_s ==
        NcclPairCost(kAG, NcclAlgorithm::kRing, NcclProtocol::kSimple, 1e3, f).latency_s);
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL, 1e9, f).latency_s ==
        NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kLL, 1e3, f).latency_s);
  // Unknown channels read as NCCL's 32: the threshold doubles.
  f.channels = 0;
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, 131072, f).latency_s ==
        Approx(lat));
  CHECK(NcclPairCost(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, 262144, f).latency_s ==
        Approx(1.4 * lat));
}

TEST_CASE("PAT's latency grows linearly with the ranks, the ring's more", "[hardware]") {
  // 2.8 µs per rank against the ring's 14 µs per node: over 4,096 nodes at one GPU per node,
  // PAT starts 11.5 ms, the ring 57 ms; both grow with the rank count.
  const double pat_1k =
      NcclPairCost(kAG, NcclAlgorithm::kPat, NcclProtocol::kSimple, 0, Node(1024, 1, false))
          .latency_s;
  const double pat_4k =
      NcclPairCost(kAG, NcclAlgorithm::kPat, NcclProtocol::kSimple, 0, Node(4096, 1, false))
          .latency_s;
  CHECK(pat_1k == Approx((8 + 10 * 4 + 1024 * 2.8) * 1e-6));
  CHECK(pat_4k == Approx((8 + 12 * 4 + 4096 * 2.8) * 1e-6));
  CHECK(NcclPairCost(kRS, NcclAlgorithm::kRing, NcclProtocol::kSimple, 0, Node(4096, 1, false))
            .latency_s > pat_4k);
}

TEST_CASE("the hot path's seconds are NcclFastest's", "[hardware]") {
  for (bool nvls : {false, true}) {
    for (int64_t ranks : {2, 8, 16, 64, 1024}) {
      for (int64_t ppn : {1, 2, 8}) {
        if (ppn > ranks) continue;
        NcclFabric f = Node(ranks, ppn, nvls);
        f.intra_hop_us = 3.0;
        f.inter_hop_us = 10.0;
        f.channels = ranks % 16 == 0 ? 16 : 0;
        for (CollectiveOp op : {kAR, kAG, kRS}) {
          for (double bytes : {1e3, 1e5, 3e5, 1e7, 1e9}) {
            INFO(ranks << " ranks, " << ppn << " per node, nvls " << nvls << ", " << bytes);
            CHECK(NcclFastestSeconds(op, bytes, f) ==
                  Approx(NcclFastest(op, bytes, f).seconds).epsilon(1e-12));
          }
        }
      }
    }
  }
}

TEST_CASE("answers are the same bit for bit whatever was asked before (the per-thread memo)",
          "[hardware]") {
  // The bytes-free part of each (collective, fabric) is kept in a small per-thread table: ask a
  // fabric first, then hundreds of others (evicting it), then again; and compare with the
  // protocol-by-protocol costs NcclPairCost gives without the table.
  std::vector<NcclFabric> fabrics;
  for (bool nvls : {false, true}) {
    for (int64_t ranks = 2; ranks <= 1024; ranks *= 2) {
      for (int64_t ppn : {1, 2, 4, 8, 72}) {
        for (double inter : {25e9, 45e9, 50e9, 100e9}) {
          NcclFabric f = Node(ranks, ppn, nvls);
          f.inter_bytes_per_s = inter;
          fabrics.push_back(f);
        }
      }
    }
  }
  REQUIRE(fabrics.size() >= 400);  // more than the table holds (256)
  const std::vector<double> sizes = {1.0, 3e4, 7.5e6, 2e9};
  std::vector<double> first_seconds;
  std::vector<NcclCost> first_fastest;
  for (const NcclFabric& f : fabrics) {
    for (CollectiveOp op : {kAR, kAG, kRS}) {
      for (double bytes : sizes) {
        first_seconds.push_back(NcclFastestSeconds(op, bytes, f));
        first_fastest.push_back(NcclFastest(op, bytes, f));
      }
    }
  }
  size_t i = 0;
  for (auto f = fabrics.rbegin(); f != fabrics.rend(); ++f) {  // the other order
    for (CollectiveOp op : {kAR, kAG, kRS}) {
      for (double bytes : sizes) {
        const size_t at = (fabrics.size() - 1 - i / (3 * sizes.size())) * 3 * sizes.size() +
                          i % (3 * sizes.size());
        ++i;
        CHECK(NcclFastestSeconds(op, bytes, *f) == first_seconds[at]);
        const NcclCost fastest = NcclFastest(op, bytes, *f);
        CHECK(fastest.seconds == first_fastest[at].seconds);
        CHECK(fastest.algorithm == first_fastest[at].algorithm);
        CHECK(fastest.protocol == first_fastest[at].protocol);
        // The pair it picks costs what NcclPairCost says, computed without the table.
        const NcclCost pair = NcclPairCost(op, fastest.algorithm, fastest.protocol, bytes, *f);
        CHECK(pair.seconds == fastest.seconds);
        CHECK(pair.latency_s == fastest.latency_s);
        CHECK(pair.algo_bytes_per_s == fastest.algo_bytes_per_s);
      }
    }
  }
}

TEST_CASE("a measured NVLS ceiling caps NVLS and NVLS-tree, not the ring",
          "[hardware][nvls_algbw]") {
  const double s = 512e6;
  NcclFabric node = Node(72, 72, true);
  const double model = 360e9 * 5.0 / 6.0;  // B · 5/6 = 300 GB/s
  CHECK(Seconds(kAR, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, node) ==
        Approx(23e-6 + s / model));
  node.nvls_algo_bytes_per_s = 200e9;  // below the model's rate: it rules
  for (const CollectiveOp op : {kAR, kRS, kAG}) {
    INFO(static_cast<int>(op));
    CHECK(Seconds(op, NcclAlgorithm::kNvls, NcclProtocol::kSimple, s, node) ==
          Approx(23e-6 + s / 200e9));
  }
  // The ring is untouched; the fast path (NcclFastestSeconds) and the pair table agree.
  CHECK(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, s, node) ==
        Approx(Seconds(kAR, NcclAlgorithm::kRing, NcclProtocol::kSimple, s, Node(72, 72, true))));
  for (const CollectiveOp op : {kAR, kRS, kAG}) {
    CHECK(NcclFastestSeconds(op, s, node) == Approx(NcclFastest(op, s, node).seconds));
  }
  // With NVLS slowed the ring may win; never faster than before.
  CHECK(NcclFastestSeconds(kAR, s, node) >= NcclFastestSeconds(kAR, s, Node(72, 72, true)));
  // A ceiling above the model's rate changes nothing.
  NcclFabric high = Node(72, 72, true);
  high.nvls_algo_bytes_per_s = 1e12;
  CHECK(NcclFastestSeconds(kAR, s, high) == Approx(NcclFastestSeconds(kAR, s, Node(72, 72, true))));
  // NVLS-tree across racks takes the ceiling too.
  NcclFabric racks = Node(144, 72, true);
  const double before = Seconds(kAR, NcclAlgorithm::kNvlsTree, NcclProtocol::kSimple, s, racks);
  racks.nvls_algo_bytes_per_s = 100e9;
  CHECK(Seconds(kAR, NcclAlgorithm::kNvlsTree, NcclProtocol::kSimple, s, racks) > before);
}
