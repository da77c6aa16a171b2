#include "config/hardware_loader.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "config/resolve.h"
#include "config_test_util.h"
#include "hardware/gpu_family.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

const char* kGpu =
    "name: t\ngpu:\n  name: G\n  memory_GiB: 80\n  memory_bandwidth_GBps: 3000\n"
    "  peak_tflops: {bf16: 900, fp8: 1800}\n";

Cluster ClusterFromText(const std::string& network) {
  const YamlDocument doc = ParseYamlText(std::string(kGpu) + network, "h.yaml");
  return ReadCluster(doc.Root(), "t", "");
}

const char* kTwoTiers =
    "network:\n"
    "  - {name: nvlink, span: 8, bandwidth_GBps: 450, latency_us: 3, nvls: true}\n"
    "  - {name: scaleout, span: 1024, bandwidth_GBps: 50, latency_us: 10}\n";

TEST_CASE("hardware loader reads tiers and defaults", "[config]") {
  const Cluster c = ClusterFromText(kTwoTiers);
  REQUIRE(c.network.size() == 2);
  CHECK(c.network[0].nvls);
  CHECK_FALSE(c.network[1].nvls);
  CHECK(c.network[1].oversubscription == 1.0);
  CHECK(c.gpu.peak_tflops.fp16 == 900);  // defaults to bf16
  CHECK(c.gpu.peak_tflops.fp32 == 0);    // not given: not available
  CHECK(c.profile == nullptr);
}

TEST_CASE("hardware loader reads a measured NVLS ceiling on an nvls tier only",
          "[config][nvls_algbw]") {
  const Cluster c = ClusterFromText(
      "network:\n"
      "  - {name: nvlink, span: 72, bandwidth_GBps: 900, latency_us: 3, nvls: true, "
      "nvls_algbw_GBps: 425.5}\n");
  CHECK(c.network[0].nvls_algbw_GBps == 425.5);
  CHECK(ClusterFromText(kTwoTiers).network[0].nvls_algbw_GBps == 0);  // not stated: no ceiling
  CHECK_THAT(ErrorOf([] {
               ClusterFromText(
                   "network:\n  - {name: a, span: 8, bandwidth_GBps: 1, latency_us: 1, "
                   "nvls_algbw_GBps: 300}\n");
             }),
             Contains("network[0].nvls_algbw_GBps: needs nvls: true"));
  CHECK_THAT(ErrorOf([] {
               ClusterFromText(
                   "network:\n  - {name: a, span: 8, bandwidth_GBps: 1, latency_us: 1, "
                   "nvls: true, nvls_algbw_GBps: -1}\n");
             }),
             Contains("nvls_algbw_GBps"));
}

TEST_CASE("hardware loader rejects bad tiers", "[config]") {
  CHECK_THAT(ErrorOf([] {
               ClusterFromText(
                   "network:\n  - {name: a, span: 8, bandwidth_GBps: 1, latency_us: 1}\n"
                   "  - {name: b, span: 8, bandwidth_GBps: 1, latency_us: 1}\n");
             }),
             Contains("h.yaml:9:21: network[1].span: tiers go from innermost out: span must be > "
                      "the previous tier's (8), got 8"));
  CHECK_THAT(ErrorOf([] {
               ClusterFromText(
                   "network:\n  - {name: a, span: 8, bandwidth_GBps: 1, latency_us: 1}\n"
                   "  - {name: a, span: 16, bandwidth_GBps: 1, latency_us: 1}\n");
             }),
             Contains("duplicate tier name 'a'"));
  CHECK_THAT(
      ErrorOf([] {
        ClusterFromText("network:\n  - {name: a, span: 8, bandwidth_GBps: 0, latency_us: 1}\n");
      }),
      Contains("network[0].bandwidth_GBps: must be > 0, got 0"));
  CHECK_THAT(ErrorOf([] {
               ClusterFromText(
                   "network:\n  - {name: a, span: 8, bandwidth_GBps: 1, latency_us: 1, "
                   "oversubscription: 0.5}\n");
             }),
             Contains("must be >= 1"));
  CHECK_THAT(ErrorOf([] { ClusterFromText("network: []\n"); }),
             Contains("needs at least one tier"));
  CHECK_THAT(ErrorOf([] {
               ClusterFromText("network:\n  - {name: a, span: 8, bandwidth: 1, latency_us: 1}\n");
             }),
             Contains("unknown key 'bandwidth' (did you mean 'bandwidth_GBps'?)"));
  CHECK_THAT(ErrorOf([] { ClusterFromText(std::string(kTwoTiers) + "profile: missing.yaml\n"); }),
             Contains("profile: calibration profile 'missing.yaml' is not a readable file"));
}

Cluster WithSmCount(const std::string& value) {
  const YamlDocument doc = ParseYamlText(
      "name: t\ngpu:\n  name: G\n  memory_GiB: 80\n  memory_bandwidth_GBps: 3000\n"
      "  peak_tflops: {bf16: 900}\n  sm_count: " +
          value + "\n" + kTwoTiers,
      "h.yaml");
  return ReadCluster(doc.Root(), "t", "");
}

TEST_CASE("hardware loader reads the optional SM count and rejects bad ones", "[config]") {
  CHECK(ClusterFromText(kTwoTiers).gpu.sm_count == 0);  // not given: unknown
  CHECK(WithSmCount("132").gpu.sm_count == 132);
  CHECK_THAT(ErrorOf([] { WithSmCount("0"); }),
             Contains("h.yaml:7:13: gpu.sm_count: must be > 0, got 0"));
  CHECK_THAT(ErrorOf([] { WithSmCount("-8"); }),
             Contains("h.yaml:7:13: gpu.sm_count: must be > 0"));
  CHECK_THAT(ErrorOf([] { WithSmCount("13.5"); }), Contains("sm_count: expected an integer"));
  CHECK_THAT(ErrorOf([] { WithSmCount("many"); }), Contains("sm_count: expected an integer"));
  CHECK_THAT(ErrorOf([] { WithSmCount("1000000"); }), Contains("sm_count: must be at most 65536"));
}

Cluster WithTierKey(const std::string& line) {
  const YamlDocument doc = ParseYamlText(
      "name: t\ngpu:\n  name: G\n  memory_GiB: 80\n  memory_bandwidth_GBps: 3000\n"
      "  peak_tflops: {bf16: 900}\n" +
          line +
          "network:\n  - name: nvlink\n    span: 8\n    bandwidth_GBps: 450\n"
          "    latency_us: 3\n    nccl_channels: 24\n",
      "h.yaml");
  return ReadCluster(doc.Root(), "t", "");
}

TEST_CASE("hardware loader reads gemm_model and nccl_channels and rejects bad ones", "[config]") {
  const Cluster c = WithTierKey("  sm_count: 132\n  gemm_model: tile\n");
  CHECK(c.gpu.gemm_model == GemmModel::kTile);
  CHECK(c.network[0].nccl_channels == 24);
  CHECK(ClusterFromText(kTwoTiers).network[0].nccl_channels == 0);  // not given: unknown
  CHECK(WithTierKey("  sm_count: 132\n").gpu.gemm_model == GemmModel::kCurve);
  CHECK_THAT(ErrorOf([] { WithTierKey("  sm_count: 132\n  gemm_model: waves\n"); }),
             Contains("h.yaml:8:15: gpu.gemm_model:"));
  CHECK_THAT(ErrorOf([] { WithTierKey("  sm_count: 132\n  gemm_model: waves\n"); }),
             Contains("curve, tile"));
  CHECK_THAT(ErrorOf([] { WithTierKey("  gemm_model: tile\n"); }),
             Contains("h.yaml:7:15: gpu.gemm_model: 'tile' needs gpu.sm_count"));
  const auto channels = [](const std::string& v) {
    const YamlDocument doc = ParseYamlText(
        std::string("name: t\ngpu:\n  name: G\n  memory_GiB: 80\n  memory_bandwidth_GBps: 1\n"
                    "  peak_tflops: {bf16: 900}\nnetwork:\n  - name: nvlink\n    span: 8\n"
                    "    bandwidth_GBps: 450\n    latency_us: 3\n    nccl_channels: ") +
            v + "\n",
        "h.yaml");
    return ReadCluster(doc.Root(), "t", "");
  };
  CHECK_THAT(ErrorOf([&] { channels("0"); }),
             Contains("h.yaml:12:20: network[0].nccl_channels: must be > 0, got 0"));
  CHECK_THAT(ErrorOf([&] { channels("65"); }), Contains("nccl_channels: must be at most 64"));
  CHECK_THAT(ErrorOf([&] { channels("2.5"); }), Contains("nccl_channels: expected an integer"));
}

TEST_CASE("every shipped hardware file loads with nvlink and scaleout tiers", "[config]") {
  int count = 0;
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath("hardware"))) {
    // hardware/efficiency.yaml is the validation's efficiency table, not a cluster.
    if (entry.path().extension() != ".yaml" || entry.path().stem() == "efficiency") continue;
    const Cluster c = LoadCluster(entry.path().stem().string());
    REQUIRE(c.network.size() >= 2);
    CHECK(c.network[0].name == "nvlink");
    // InternLM's RoCE cluster names its scale-out tier `roce`: a fabric of its own, which takes
    // no fitted `link.scaleout` fraction (hardware/internlm-a100-roce.yaml); Google Cloud's A3 Mega
    // names its GPUDirect-TCPXO tier `tcpxo` for the same reason (hardware/gcp-a3mega-h100.yaml).
    if (c.name == "internlm-a100-roce") {
      CHECK(c.network[1].name == "roce");
    } else if (c.name == "gcp-a3mega-h100") {
      CHECK(c.network[1].name == "tcpxo");
    } else {
      CHECK(c.network[1].name == "scaleout");
    }
    CHECK(c.gpu.peak_tflops.bf16 > 0);
    // Every shipped file states its SM count (a datasheet fact, what overlapped communication
    // takes a share of) and each tier's NCCL channels. Hopper parts use the shape-aware GEMM
    // model, whose constants were measured on Hopper; Ampere too since stop 38 (A100's own MAMF
    // and Zero Bubble's per-stage profile: docs/cost-model.md, "Shape-aware GEMM model"). The DGX
    // B200/B300 files (GPUs nobody fitted) quantise tiles and waves over their own SM count;
    // gb200-nvl72 keeps the curve.
    CHECK(c.gpu.sm_count >= 108);
    const std::string family = GpuFamily(c.gpu.name);
    if (family == kHopper) CHECK(c.gpu.gemm_model == GemmModel::kTile);
    if (family == kAmpere) CHECK(c.gpu.gemm_model == GemmModel::kTile);
    if (c.name == "dgx-b200" || c.name == "dgx-b300") CHECK(c.gpu.gemm_model == GemmModel::kTile);
    CHECK(c.network[0].nccl_channels > 0);
    CHECK(c.network[1].nccl_channels > 0);
    ++count;
  }
  CHECK(count >= 5);
  CHECK(LoadCluster("gb200-nvl72").network[0].span == 72);
  CHECK(LoadCluster("dgx-h100").network[1].bandwidth_GBps == 50);
  // DGX GB200 compute trays carry one ConnectX-7 400 Gb/s NIC per GPU (DGX GB200 User Guide),
  // not GB300's 800 Gb/s ConnectX-8: 50 GB/s per direction, as DGX H100.
  CHECK(LoadCluster("gb200-nvl72").network[1].bandwidth_GBps == 50);
}

TEST_CASE("cluster overrides address tiers by name", "[config]") {
  const Cluster c = LoadCluster(
      "dgx-h100", {ParseOverrideFlag("cluster.network.scaleout.bandwidth_GBps=100"),
                   ParseOverrideFlag("cluster.gpu.memory_GiB=96"),
                   ParseOverrideFlag("cluster.gpu.peak_tflops.bf16=800"),
                   ParseOverrideFlag("model.seq_len=5")});  // not for the cluster: skipped
  CHECK(c.network[1].bandwidth_GBps == 100);
  CHECK(c.gpu.memory_GiB == 96);
  CHECK(c.gpu.peak_tflops.bf16 == 800);
  CHECK_THAT(ErrorOf([] {
               LoadCluster("dgx-h100", {ParseOverrideFlag("cluster.network.infiniband.span=9")});
             }),
             Contains("no item named 'infiniband' in 'network' (have: nvlink, scaleout)"));
  CHECK(ErrorOf([] { LoadCluster("dgx-h100", {ParseOverrideFlag("cluster.gpu.memory_GiB=x")}); }) ==
        "--set: cluster.gpu.memory_GiB: expected a number, got 'x'");
  CHECK_THAT(ErrorOf([] { LoadCluster("dgx-h101"); }), Contains("did you mean 'dgx-h100'?"));
}

TEST_CASE("a hardware profile path is relative to the hardware file", "[config]") {
  testing::WriteScratch("hw/profiles/p.yaml", "memory_bandwidth_GBps: 3000\n");
  const std::string path = testing::WriteScratch(
      "hw/h.yaml", std::string(kGpu) + kTwoTiers + "profile: profiles/p.yaml\n");
  const Cluster c = LoadCluster(path);
  REQUIRE(c.profile != nullptr);
  CHECK(c.profile->memory_bandwidth_GBps == 3000);
}

TEST_CASE("the per-GPU spread: the file's, else the profile's, else the family's", "[config]") {
  // Published for V100 only (hardware/gpu_variability.h); H100 and an unknown GPU have none.
  const Cluster v100 =
      LoadCluster("dgx-h100", {ParseOverrideFlag("cluster.gpu.name=V100-SXM2-32GB")});
  CHECK(v100.gpu.speed_sigma == Approx(0.08 / 5.396));
  CHECK_THAT(v100.gpu.speed_sigma_source, Contains("Sinha"));
  const Cluster h100 = LoadCluster("dgx-h100");
  CHECK(h100.gpu.speed_sigma == 0);
  CHECK_THAT(h100.gpu.speed_sigma_source, Contains("none published"));
  CHECK(ClusterFromText(kTwoTiers).gpu.speed_sigma == 0);
  // A profile measured on the cluster's GPUs replaces it.
  testing::WriteScratch("hw2/p.yaml", "gpu_speed_sigma: 0.03\n");
  const std::string path =
      testing::WriteScratch("hw2/h.yaml", std::string(kGpu) + kTwoTiers + "profile: p.yaml\n");
  const Cluster profiled = LoadCluster(path);
  CHECK(profiled.gpu.speed_sigma == 0.03);
  CHECK_THAT(profiled.gpu.speed_sigma_source, Contains("calibration profile"));
  // The file's own key wins over both, and --set reaches it (0 turns the term off).
  const Cluster off = LoadCluster("dgx-h100", {ParseOverrideFlag("cluster.gpu.speed_sigma=0")});
  CHECK(off.gpu.speed_sigma == 0);
  CHECK(off.gpu.speed_sigma_source == "hardware file (gpu.speed_sigma)");
  CHECK_THAT(
      ErrorOf([] { LoadCluster("dgx-h100", {ParseOverrideFlag("cluster.gpu.speed_sigma=-0.1")}); }),
      Contains("must be >= 0 and below 0.5"));
  testing::WriteScratch("hw3/p.yaml", "gpu_speed_sigma: 0.7\n");
  const std::string bad =
      testing::WriteScratch("hw3/h.yaml", std::string(kGpu) + kTwoTiers + "profile: p.yaml\n");
  CHECK_THAT(ErrorOf([&] { LoadCluster(bad); }),
             Contains("gpu_speed_sigma") && Contains("must be below 0.5"));
}

}  // namespace
}  // namespace paraplan
