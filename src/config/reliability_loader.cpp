#include "config/reliability_loader.h"

#include "core/format.h"

namespace paraplan {

namespace {

const std::vector<std::string> kReliabilityKeys = {"failures_per_gpu_day", "relaunch_s",
                                                   "nccl_init_s_per_rank2"};
const std::vector<std::string> kStorageKeys = {"write_GBps_per_node", "read_GBps_per_node",
                                               "aggregate_GBps"};
const std::vector<std::string> kPowerKeys = {"gpu_tdp_W", "gpu_idle_W", "node_other_W",
                                             "gpus_per_node", "pue"};

// A non-negative value (0 allowed: no relaunch time, no idle draw).
double NonNegative(const YamlMap& map, const std::string& key, double fallback) {
  const auto node = map.Find(key);
  if (!node) return fallback;
  const double v = node->AsDouble();
  if (v < 0) node->Fail("must be >= 0, got " + FormatShortest(v));
  return v;
}

ClusterReliability ReadReliability(const YamlNode& node) {
  const YamlMap map(node, kReliabilityKeys);
  ClusterReliability r;
  r.failures_per_gpu_day = NonNegative(map, "failures_per_gpu_day", r.failures_per_gpu_day);
  if (r.failures_per_gpu_day > 1) {
    map.Required("failures_per_gpu_day")
        .Fail("must be <= 1 (one failure per GPU per day), got " +
              FormatShortest(r.failures_per_gpu_day));
  }
  r.relaunch_s = NonNegative(map, "relaunch_s", r.relaunch_s);
  r.nccl_init_s_per_rank2 = NonNegative(map, "nccl_init_s_per_rank2", r.nccl_init_s_per_rank2);
  return r;
}

ClusterStorage ReadStorage(const YamlNode& node) {
  const YamlMap map(node, kStorageKeys);
  ClusterStorage s;
  s.write_GBps_per_node = map.PositiveDouble("write_GBps_per_node", s.write_GBps_per_node);
  s.read_GBps_per_node = map.PositiveDouble("read_GBps_per_node", s.read_GBps_per_node);
  s.aggregate_GBps = map.PositiveDouble("aggregate_GBps", s.aggregate_GBps);
  return s;
}

ClusterPower ReadPower(const YamlNode& node, const ClusterPower& defaults) {
  const YamlMap map(node, kPowerKeys);
  ClusterPower p = defaults;
  p.gpu_tdp_W = map.PositiveDouble("gpu_tdp_W", p.gpu_tdp_W);
  p.gpu_idle_W = NonNegative(map, "gpu_idle_W", p.gpu_idle_W);
  p.node_other_W = NonNegative(map, "node_other_W", p.node_other_W);
  p.gpus_per_node = map.PositiveInt("gpus_per_node", p.gpus_per_node);
  p.pue = map.PositiveDouble("pue", p.pue);
  if (p.gpu_tdp_W > 0 && p.gpu_idle_W >= p.gpu_tdp_W) {
    map.Required("gpu_idle_W")
        .Fail("must be below gpu_tdp_W (" + FormatShortest(p.gpu_tdp_W) + "), got " +
              FormatShortest(p.gpu_idle_W));
  }
  if (p.pue < 1 || p.pue > 3) {
    map.Required("pue").Fail("must be in [1, 3] (facility over IT power), got " +
                             FormatShortest(p.pue));
  }
  if (p.gpus_per_node > 1024) {
    map.Required("gpus_per_node").Fail("must be <= 1024, got " + std::to_string(p.gpus_per_node));
  }
  return p;
}

bool StartsWith(const std::string& text, const std::string& prefix) {
  return text.rfind(prefix, 0) == 0;
}

}  // namespace

std::optional<ClusterPower> PowerDefaultsFor(const std::string& gpu) {
  // TDPs: the SXM datasheets (H100/H200/H800 700 W, A100 80GB 400 W, B200 in GB200 1200 W).
  // node_other_W: the DGX system's maximum power less its GPUs' TDP (DGX H100/H200 datasheet
  // 10.2 kW - 8 x 700 W; DGX A100 6.5 kW - 8 x 400 W; a GB200 NVL72 rack's ~120 kW less 72 x
  // 1200 W over its 18 compute trays of 4 GPUs). Idle draw: the value nvidia-smi reports
  // on an idle SXM part (docs/formats.md), an assumption to override with --set.
  // PUE 1.1: Google's fleet-wide trailing-twelve-month PUE (google.com/about/datacenters).
  ClusterPower p;
  p.pue = 1.1;
  if (StartsWith(gpu, "H100") || StartsWith(gpu, "H200") || StartsWith(gpu, "H800")) {
    p.gpu_tdp_W = 700, p.gpu_idle_W = 70, p.node_other_W = 4600, p.gpus_per_node = 8;
  } else if (StartsWith(gpu, "A100")) {
    p.gpu_tdp_W = 400, p.gpu_idle_W = 50, p.node_other_W = 3300, p.gpus_per_node = 8;
  } else if (StartsWith(gpu, "B200")) {
    p.gpu_tdp_W = 1200, p.gpu_idle_W = 100, p.node_other_W = 1870, p.gpus_per_node = 4;
  } else {
    return std::nullopt;
  }
  return p;
}

void ReadReliabilitySections(const YamlMap& map, Cluster& cluster) {
  if (const auto node = map.Find("reliability")) cluster.reliability = ReadReliability(*node);
  if (const auto node = map.Find("storage")) cluster.storage = ReadStorage(*node);
  const ClusterPower defaults = PowerDefaultsFor(cluster.gpu.name).value_or(ClusterPower{});
  cluster.power = defaults;
  if (const auto node = map.Find("power")) cluster.power = ReadPower(*node, defaults);
}

}  // namespace paraplan
