// hardware/gcp-a3mega-h100.yaml: Google Cloud's A3 Mega VMs (8 x H100 SXM5 80 GB over
// GPUDirect-TCPXO), where the gpu-recipes A3 Mega NeMo examples ran (NV01-NV03,
// docs/validation/README.md). The part is dgx-h100's, so the efficiency fit and the held-out
// grouping treat these rows as H100; only the scale-out tier differs.
#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "config/same_part.h"

using namespace paraplan;

TEST_CASE("gcp-a3mega-h100 is dgx-h100's part with half its scale-out bandwidth", "[config]") {
  const Cluster a3mega = LoadCluster("gcp-a3mega-h100");
  const Cluster dgx = LoadCluster("dgx-h100");
  testing::CheckSamePart(a3mega, dgx, "H100");
  REQUIRE(a3mega.network.size() == 2);
  // The NVLink 4 / NVSwitch node is DGX H100's.
  CHECK(a3mega.network[0].span == dgx.network[0].span);
  CHECK(a3mega.network[0].bandwidth_GBps == dgx.network[0].bandwidth_GBps);
  CHECK(a3mega.network[0].nvls == dgx.network[0].nvls);
  // Eight 200 Gb/s TCPXO NICs per VM: 25 GB/s per GPU, half of one 400 Gb/s NDR NIC per GPU, in a
  // tier of its own name, so it takes no bus-bandwidth fraction fitted on InfiniBand.
  CHECK(a3mega.network[1].name == "tcpxo");
  CHECK(a3mega.network[1].bandwidth_GBps == 25);
  CHECK(a3mega.network[1].bandwidth_GBps * 2 == dgx.network[1].bandwidth_GBps);
}
