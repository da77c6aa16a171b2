// hardware/gcp-a3mega-h100.yaml: Google Cloud's A3 Mega VMs (8 x H100 SXM5 80 GB over
// GPUDirect-TCPXO), where the gpu-recipes A3 Mega NeMo examples ran (NV01-NV03,
// docs/validation/README.md). The part is dgx-h100's, so the efficiency fit and the held-out
// grouping treat these rows as H100; only the scale-out tier differs.
#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "hardware/gpu_family.h"

using namespace paraplan;

TEST_CASE("gcp-a3mega-h100 is dgx-h100's part with half its scale-out bandwidth", "[config]") {
  const Cluster a3mega = LoadCluster("gcp-a3mega-h100");
  const Cluster dgx = LoadCluster("dgx-h100");
  CHECK(a3mega.gpu.name == dgx.gpu.name);
  CHECK(GpuModel(a3mega.gpu.name) == "H100");
  CHECK(a3mega.gpu.memory_GiB == dgx.gpu.memory_GiB);
  CHECK(a3mega.gpu.memory_bandwidth_GBps == dgx.gpu.memory_bandwidth_GBps);
  CHECK(a3mega.gpu.peak_tflops.bf16 == dgx.gpu.peak_tflops.bf16);
  CHECK(a3mega.gpu.peak_tflops.fp8 == dgx.gpu.peak_tflops.fp8);
  CHECK(a3mega.gpu.sm_count == dgx.gpu.sm_count);
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
