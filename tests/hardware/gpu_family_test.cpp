#include "hardware/gpu_family.h"

#include <catch2/catch.hpp>

#include "config/efficiency_loader.h"
#include "config/resolve.h"
#include "hardware/efficiency_transfer.h"
#include "hardware/measured_efficiency.h"

using namespace paraplan;

TEST_CASE("GpuFamily is the chip generation, GpuModel the efficiency key", "[hardware]") {
  CHECK(GpuFamily("A100-SXM4-80GB") == "Ampere");
  CHECK(GpuFamily("H100-SXM5-96GB-HBM2e-500W") == "Hopper");
  CHECK(GpuFamily("h800-sxm") == "Hopper");
  CHECK(GpuFamily("H200-SXM-141GB") == "Hopper");
  CHECK(GpuModel("GH200-96GB-HBM3") == "GH200");  // not "H200": longest name first
  CHECK(GpuFamily("GH200-96GB-HBM3") == "Hopper");
  CHECK(GpuFamily("B200-GB200") == "Blackwell");
  CHECK(GpuFamily("B300-SXM-288GB") == "Blackwell");
  CHECK(GpuFamily("MI300X") == "MI300X");  // unknown: its own family
  CHECK(GpuModel("B200-GB200") == "GB200");
  CHECK(GpuModel("B300-SXM-288GB") == "B300");
  CHECK(FamilyModels("Hopper") == std::vector<std::string>{"H100", "H200", "H800", "GH200"});
  CHECK(FamilyModels("Blackwell") == std::vector<std::string>{"B200", "B300", "GB200", "GB300"});
  CHECK(FamilyModels("MI300X").empty());
}

TEST_CASE("A GPU nobody fitted takes a fitted model's numbers per SM and clock", "[hardware]") {
  Efficiency fitted;
  fitted.gemm_max = 0.66;
  fitted.gemm_half_dim = 592;
  fitted.attention_fwd = 0.7;
  fitted.fa2_attention_fwd = 0.36;
  fitted.link = {{"nvlink", 0.8}, {"scaleout", 0.84}};
  GpuSpec h100;
  h100.name = "H100-SXM5-80GB";
  h100.sm_count = 132;
  GpuSpec b300;
  b300.name = "B300-GB300";  // GB300: no measured ceiling of its own
  b300.sm_count = 160;
  const TransferredEfficiency t =
      TransferEfficiency(fitted, "H100", h100, b300, {"nvlink", "scaleout", "rail"});
  CHECK(t.efficiency.gemm_max == 0.66);  // a fraction of its own datasheet peak
  CHECK(t.efficiency.attention_fwd == 0.7);
  CHECK(t.efficiency.gemm_half_dim == Approx(592.0 * 160 / 132));  // more SMs to fill
  CHECK(t.efficiency.fa2_attention_fwd == 0.36);
  CHECK(t.efficiency.link.at("scaleout") == 0.84);
  CHECK(t.efficiency.link.at("rail") == 0.8);  // no fraction for it: the generic one
  bool gemm_sourced = false;
  for (const auto& [field, source] : t.sources) {
    if (field == "gemm_max") gemm_sourced = source.find("per SM and clock") != std::string::npos;
  }
  CHECK(gemm_sourced);
  // To Ampere, FlashAttention-2 is the fused kernel itself.
  GpuSpec a100;
  a100.name = "A100-SXM4-80GB";
  a100.sm_count = 108;
  const TransferredEfficiency to_a100 = TransferEfficiency(fitted, "H100", h100, a100, {});
  CHECK(to_a100.efficiency.fa2_attention_fwd == 0);
  CHECK(to_a100.efficiency.gemm_half_dim == Approx(484.4).epsilon(1e-3));
}

TEST_CASE("The shipped B300 node takes the H100 fit transferred, never a hand-set entry",
          "[hardware][config]") {
  const Cluster b300 = LoadCluster("dgx-b300");
  const Cluster h100 = LoadCluster("dgx-h100");
  EfficiencyOrigin origin;
  const Efficiency e = DefaultClusterEfficiency(b300, &origin);
  CHECK(origin.entry == "transferred from H100");
  CHECK(e == b300.efficiency);
  // B300's own measured GEMM ceilings (TransformerEngine's benchmark) times H100's fitted /
  // measured.
  const MeasuredEfficiency measured = MeasuredKernelEfficiency(b300.gpu);
  CHECK(e.gemm_max ==
        Approx(measured.Find("gemm_max")->value * h100.efficiency.gemm_max / kTileGemmTopBf16));
  CHECK(e.fp8_gemm_max == Approx(measured.Find("fp8_gemm_max")->value *
                                 h100.efficiency.fp8_gemm_max / kTileGemmTopFp8));
  CHECK(e.gemm_half_dim == Approx(h100.efficiency.gemm_half_dim * 160.0 / 132.0));
  CHECK(origin.sources.size() >= 11);
  // B200 and GB200 have fitted entries since their published runs: a fitted GPU keeps its entry.
  EfficiencyOrigin b200;
  DefaultClusterEfficiency(LoadCluster("dgx-b200"), &b200);
  CHECK(b200.entry == "B200");
  EfficiencyOrigin gb200;
  DefaultClusterEfficiency(LoadCluster("gb200-nvl72"), &gb200);
  CHECK(gb200.entry == "GB200");
  EfficiencyOrigin fitted;
  DefaultClusterEfficiency(h100, &fitted);
  CHECK(fitted.entry == "H100");
}
