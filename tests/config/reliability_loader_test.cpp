// A hardware file's optional reliability, storage and power sections (config/reliability_loader.h):
// defaults for a file without them, the keys read, errors with their location, and every shipped
// file stating them.
#include "config/reliability_loader.h"

#include <catch2/catch.hpp>
#include <filesystem>

#include "config/hardware_loader.h"
#include "config/resolve.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

Cluster ReliabilityCluster(const std::string& gpu_name, const std::string& sections) {
  const std::string text = "name: t\ngpu:\n  name: " + gpu_name +
                           "\n  memory_GiB: 80\n  memory_bandwidth_GBps: 3000\n"
                           "  peak_tflops: {bf16: 900}\n"
                           "network:\n  - {name: nvlink, span: 8, bandwidth_GBps: 450, "
                           "latency_us: 3}\n" +
                           sections;
  const YamlDocument doc = ParseYamlText(text, "h.yaml");
  return ReadCluster(doc.Root(), "t", "");
}

TEST_CASE("a hardware file without the sections gets the documented defaults", "[config]") {
  const Cluster c = ReliabilityCluster("H100-SXM5-80GB", "");
  CHECK(c.reliability.failures_per_gpu_day == Approx(419.0 / (54 * 16384)));
  CHECK(c.storage.aggregate_GBps == 2000);
  CHECK(c.power.gpu_tdp_W == 700);  // the GPU family's datasheet TDP
  CHECK(c.power.pue == Approx(1.1));
  const Cluster unknown = ReliabilityCluster("MI300X", "");
  CHECK(unknown.power.gpu_tdp_W == 0);  // no family default: no energy figures
  CHECK_FALSE(PowerDefaultsFor("MI300X").has_value());
  CHECK(PowerDefaultsFor("B200-GB200")->gpus_per_node == 4);
}

TEST_CASE("the sections' keys are read and checked", "[config]") {
  const Cluster c =
      ReliabilityCluster("H100-SXM5-80GB",
                         "reliability: {failures_per_gpu_day: 0.001, relaunch_s: 60}\n"
                         "storage: {write_GBps_per_node: 12.5, aggregate_GBps: 500}\n"
                         "power: {gpu_tdp_W: 500, pue: 1.3}\n");
  CHECK(c.reliability.failures_per_gpu_day == 0.001);
  CHECK(c.reliability.relaunch_s == 60);
  CHECK(c.storage.write_GBps_per_node == 12.5);
  CHECK(c.storage.read_GBps_per_node == 40);  // not given: the default
  CHECK(c.power.gpu_tdp_W == 500);
  CHECK(c.power.gpu_idle_W == 70);  // the family's, kept
  CHECK(c.power.pue == 1.3);
  CHECK_THAT(ErrorOf([] { ReliabilityCluster("G", "reliability: {failures_per_gpu_day: -1}\n"); }),
             Contains("h.yaml:9:37: reliability.failures_per_gpu_day: must be >= 0"));
  CHECK_THAT(ErrorOf([] { ReliabilityCluster("G", "storage: {aggregate_GBps: 0}\n"); }),
             Contains("storage.aggregate_GBps: must be > 0"));
  CHECK_THAT(ErrorOf([] { ReliabilityCluster("G", "power: {gpu_tdp_W: 700, pue: 0.9}\n"); }),
             Contains("power.pue: must be in [1, 3]"));
  CHECK_THAT(ErrorOf([] { ReliabilityCluster("G", "power: {gpu_tdp_W: 700, gpu_idle_W: 800}\n"); }),
             Contains("power.gpu_idle_W: must be below gpu_tdp_W"));
  CHECK_THAT(ErrorOf([] { ReliabilityCluster("G", "storage: {write_GBps: 3}\n"); }),
             Contains("write_GBps"));
}

TEST_CASE("every shipped hardware file states its reliability, storage and power", "[config]") {
  for (const auto& entry : std::filesystem::directory_iterator(testing::SourcePath("hardware"))) {
    if (entry.path().extension() != ".yaml" || entry.path().stem() == "efficiency") continue;
    INFO(entry.path().string());
    const Cluster c = LoadCluster(entry.path().stem().string());
    CHECK(c.power.gpu_tdp_W > 0);
    CHECK(c.power.node_other_W > 0);
    CHECK(c.reliability.failures_per_gpu_day > 0);
    CHECK(c.storage.write_GBps_per_node > 0);
  }
  // --set reaches a section the file may not have.
  const Cluster c = LoadCluster("dgx-h100", {{"cluster.reliability.relaunch_s", "900", {}}});
  CHECK(c.reliability.relaunch_s == 900);
}

}  // namespace
}  // namespace paraplan
