#include "hardware/nccl_protocols.h"

#include <catch2/catch.hpp>
#include <string>

using namespace paraplan;

TEST_CASE("NCCL protocol shares are fractions of the channels' bandwidth", "[hardware]") {
  for (int a = 0; a < kNcclAlgorithms; ++a) {
    for (int p = 0; p < kNcclProtocols; ++p) {
      for (bool all_reduce : {false, true}) {
        for (int64_t nodes : {1, 2, 16}) {
          const double f = NcclProtocolFraction(static_cast<NcclAlgorithm>(a),
                                                static_cast<NcclProtocol>(p), all_reduce, nodes, 8);
          CHECK(f >= 0.0);
          CHECK(f <= 1.0);
        }
      }
    }
  }
  // LL carries 4 data bytes per 8-byte line and a flag: 1/4 across nodes, 1/3 for an in-node
  // all-gather; LL128 120 of 128 bytes less overhead, 0.7 at one GPU per node.
  CHECK(NcclProtocolFraction(NcclAlgorithm::kRing, NcclProtocol::kLL, false, 1, 8) ==
        Approx(1.0 / 3.0));
  CHECK(NcclProtocolFraction(NcclAlgorithm::kRing, NcclProtocol::kLL, false, 2, 8) == 0.25);
  CHECK(NcclProtocolFraction(NcclAlgorithm::kRing, NcclProtocol::kLL128, true, 2, 1) == 0.7);
  // NVLS, NVLS-tree and PAT are Simple only; PAT at 0.75 (tuning.cc, NCCL 2.24 on).
  CHECK(NcclProtocolFraction(NcclAlgorithm::kNvls, NcclProtocol::kLL128, true, 1, 8) == 0.0);
  CHECK(NcclProtocolFraction(NcclAlgorithm::kPat, NcclProtocol::kSimple, false, 4, 1) == 0.75);
  CHECK(NcclProtocolFraction(NcclAlgorithm::kPat, NcclProtocol::kLL, false, 4, 1) == 0.0);
}

TEST_CASE("NCCL latency tables: LL is the fastest hop, the network slower than NVLink",
          "[hardware]") {
  for (NcclAlgorithm a : {NcclAlgorithm::kRing, NcclAlgorithm::kTree}) {
    for (bool network : {false, true}) {
      CHECK(NcclHopLatencyUs(a, NcclProtocol::kLL, network) <
            NcclHopLatencyUs(a, NcclProtocol::kSimple, network));
    }
    CHECK(NcclHopLatencyUs(a, NcclProtocol::kSimple, true) >=
          NcclHopLatencyUs(a, NcclProtocol::kSimple, false));
  }
  CHECK(NcclBaseLatencyUs(NcclAlgorithm::kRing, NcclProtocol::kSimple) == 8.4);
  CHECK(std::string(ToString(NcclAlgorithm::kNvlsTree)) == "nvls_tree");
  CHECK(std::string(ToString(NcclProtocol::kLL128)) == "LL128");
}
