// hardware/alps-gh200.yaml: the CSCS Alps node of four GH200 Grace Hopper Superchips on
// Slingshot-11, where the swiss-ai Megatron-LM rows GH01-GH05 ran (docs/validation/README.md).
// GH200 is a Hopper model of its own (not H200: the name contains "H200"), folded with H100,
// H200 and H800 by `validate --cv gpu`, and with no fitted entry it takes H100's fit transferred.
#include <catch2/catch.hpp>

#include "config/efficiency_loader.h"
#include "config/resolve.h"
#include "hardware/gpu_family.h"

using namespace paraplan;

TEST_CASE("alps-gh200 is a Hopper part of its own on a four-GPU mesh and Slingshot-11",
          "[config]") {
  const Cluster alps = LoadCluster("alps-gh200");
  const Cluster h100 = LoadCluster("dgx-h100");
  CHECK(GpuModel(alps.gpu.name) == "GH200");
  CHECK(GpuFamily(alps.gpu.name) == "Hopper");
  // The GH100 die at the H100 SXM's datasheet peaks; 96 GB HBM3 at 4 TB/s, not H100's 3.35.
  CHECK(alps.gpu.sm_count == h100.gpu.sm_count);
  CHECK(alps.gpu.peak_tflops.bf16 == h100.gpu.peak_tflops.bf16);
  CHECK(alps.gpu.peak_tflops.fp8 == h100.gpu.peak_tflops.fp8);
  CHECK(alps.gpu.memory_bandwidth_GBps == 4000);
  CHECK(alps.gpu.memory_GiB == 94);
  // NVLink-C2C to its own Grace, 900 GB/s both ways: seven times H100's PCIe Gen5 x16.
  CHECK(alps.gpu.host_link_GBps == 450);
  REQUIRE(alps.network.size() == 2);
  CHECK(alps.network[0].span == 4);
  CHECK_FALSE(alps.network[0].nvls);            // "there is no NVSwitch"
  CHECK(alps.network[1].bandwidth_GBps == 25);  // Slingshot-11, 200 Gb/s per superchip
  CHECK(alps.power.gpus_per_node == 4);
  CHECK(alps.power.gpu_tdp_W == 660);  // the module cap, Grace included
}

TEST_CASE("alps-gh200 takes H100's fit transferred (hardware/efficiency.yaml has no GH200 entry)",
          "[config][hardware]") {
  const Cluster alps = LoadCluster("alps-gh200");
  const Cluster h100 = LoadCluster("dgx-h100");
  EfficiencyOrigin origin;
  const Efficiency e = DefaultClusterEfficiency(alps, &origin);
  CHECK(origin.entry == "transferred from H100");
  // The same family's measured ceilings on both sides: the fitted fractions carry over as they
  // are, each of the part's own datasheet peak.
  CHECK(e.gemm_max == Approx(h100.efficiency.gemm_max));
  CHECK(e.attention_fwd == Approx(h100.efficiency.attention_fwd));
  CHECK(e.gemm_half_dim == Approx(h100.efficiency.gemm_half_dim));
  CHECK(DerivedFamilies().at("GH200") == "H100");
}
