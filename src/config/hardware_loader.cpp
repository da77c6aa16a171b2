#include "config/hardware_loader.h"

#include <filesystem>
#include <set>

#include "config/count_bounds.h"
#include "config/efficiency_loader.h"
#include "config/measured_rate_loader.h"
#include "config/overrides.h"
#include "config/profile_io.h"
#include "config/reliability_loader.h"
#include "core/format.h"
#include "hardware/gpu_variability.h"

namespace paraplan {

namespace {

const std::vector<std::string> kClusterKeys = {"name",    "gpu",         "network", "profile",
                                               "storage", "reliability", "power"};
const std::vector<std::string> kGpuKeys = {
    "name",           "memory_GiB",       "memory_bandwidth_GBps",
    "host_link_GBps", "host_memory_GBps", "peak_tflops",
    "sm_count",       "gemm_model",       "speed_sigma",
    "measured"};
const std::vector<std::string> kPeakKeys = {"fp32", "tf32", "bf16", "fp16", "fp8"};
const std::vector<std::string> kTierKeys = {
    "name", "span",          "bandwidth_GBps", "latency_us", "oversubscription",
    "nvls", "nccl_channels", "nvls_algbw_GBps"};

PeakTflops ReadPeaks(const YamlNode& node) {
  const YamlMap map(node, kPeakKeys);
  PeakTflops peak;
  peak.bf16 = map.Required("bf16").AsPositiveDouble();
  peak.fp16 = map.PositiveDouble("fp16", peak.bf16);
  peak.fp32 = map.PositiveDouble("fp32", 0);
  peak.tf32 = map.PositiveDouble("tf32", 0);
  peak.fp8 = map.PositiveDouble("fp8", 0);
  return peak;
}

GpuSpec ReadGpu(const YamlNode& node) {
  const YamlMap map(node, kGpuKeys);
  GpuSpec gpu;
  gpu.name = map.Required("name").AsString();
  gpu.memory_GiB = map.Required("memory_GiB").AsPositiveDouble();
  gpu.memory_bandwidth_GBps = map.Required("memory_bandwidth_GBps").AsPositiveDouble();
  gpu.host_link_GBps = map.PositiveDouble("host_link_GBps", 0);
  gpu.host_memory_GBps = map.PositiveDouble("host_memory_GBps", 0);
  gpu.peak_tflops = ReadPeaks(map.Required("peak_tflops"));
  gpu.sm_count = map.PositiveInt("sm_count", 0);
  CheckCounts(map, {{"sm_count", gpu.sm_count, kMaxSmCount}});
  if (const auto model = map.Find("gemm_model")) {
    gpu.gemm_model =
        model->AsEnum<GemmModel>({{"curve", GemmModel::kCurve}, {"tile", GemmModel::kTile}});
    if (gpu.gemm_model == GemmModel::kTile && gpu.sm_count == 0) {
      model->Fail("'tile' needs gpu.sm_count (its waves are tiles over the SMs)");
    }
  }
  if (const auto sigma = map.Find("speed_sigma")) {
    gpu.speed_sigma = sigma->AsDouble();
    if (gpu.speed_sigma < 0 || gpu.speed_sigma >= kMaxSpeedSigma) {
      sigma->Fail("must be >= 0 and below " + FormatShortest(kMaxSpeedSigma) +
                  " (a standard deviation of one GPU's time over the median's, as a fraction), "
                  "got " +
                  FormatShortest(gpu.speed_sigma));
    }
    gpu.speed_sigma_source = "hardware file (gpu.speed_sigma)";
  }
  if (const auto measured = map.Find("measured")) ReadMeasuredRates(*measured, gpu);
  return gpu;
}

// The per-GPU spread: the file's own, else the profile's measurement, else the family's
// published figure (hardware/gpu_variability.h).
void ResolveSpeedSpread(Cluster& cluster) {
  if (!cluster.gpu.speed_sigma_source.empty()) return;
  if (cluster.profile && cluster.profile->gpu_speed_sigma > 0) {
    cluster.gpu.speed_sigma = cluster.profile->gpu_speed_sigma;
    cluster.gpu.speed_sigma_source = "calibration profile " + cluster.profile->source_path;
    return;
  }
  const SpeedSpread published = PublishedSpeedSpread(cluster.gpu.name);
  cluster.gpu.speed_sigma = published.sigma;
  cluster.gpu.speed_sigma_source = published.source;
}

NetworkTier ReadTier(const YamlNode& node) {
  const YamlMap map(node, kTierKeys);
  NetworkTier tier;
  tier.name = map.Required("name").AsString();
  if (tier.name.empty()) map.Required("name").Fail("must not be empty");
  tier.span = map.Required("span").AsPositiveInt();
  CheckCounts(map, {{"span", tier.span, kMaxTierSpan}});
  tier.bandwidth_GBps = map.Required("bandwidth_GBps").AsPositiveDouble();
  tier.latency_us = map.Required("latency_us").AsPositiveDouble();
  tier.oversubscription = map.PositiveDouble("oversubscription", 1.0);
  if (tier.oversubscription < 1.0) {
    map.Required("oversubscription")
        .Fail("must be >= 1 (1 = full bisection), got " + FormatShortest(tier.oversubscription));
  }
  tier.nvls = map.Bool("nvls", false);
  tier.nvls_algbw_GBps = map.PositiveDouble("nvls_algbw_GBps", 0.0);
  if (tier.nvls_algbw_GBps > 0 && !tier.nvls) {
    map.Required("nvls_algbw_GBps").Fail("needs nvls: true (it measures NVLink SHARP)");
  }
  tier.nccl_channels = map.PositiveInt("nccl_channels", 0);
  CheckCounts(map, {{"nccl_channels", tier.nccl_channels, kMaxNcclChannels}});
  return tier;
}

std::vector<NetworkTier> ReadNetwork(const YamlNode& node) {
  const std::vector<YamlNode> items = node.Elements();
  if (items.empty()) node.Fail("needs at least one tier");
  CheckBound(node, static_cast<int64_t>(items.size()), kMaxNetworkTiers);
  std::vector<NetworkTier> tiers;
  std::set<std::string> names;
  for (const YamlNode& item : items) {
    NetworkTier tier = ReadTier(item);
    const YamlMap map(item, kTierKeys);
    if (!names.insert(tier.name).second) {
      map.Required("name").Fail("duplicate tier name '" + tier.name + "'");
    }
    if (!tiers.empty() && tier.span <= tiers.back().span) {
      map.Required("span").Fail(
          "tiers go from innermost out: span must be > the previous tier's (" +
          std::to_string(tiers.back().span) + "), got " + std::to_string(tier.span));
    }
    tiers.push_back(tier);
  }
  return tiers;
}

}  // namespace

Cluster ReadCluster(const YamlNode& node, const std::string& default_name,
                    const std::string& base_dir) {
  const YamlMap map(node, kClusterKeys);
  Cluster cluster;
  cluster.name = map.String("name", default_name);
  if (cluster.name.empty()) node.Fail("missing required key 'name'");
  cluster.gpu = ReadGpu(map.Required("gpu"));
  cluster.network = ReadNetwork(map.Required("network"));
  if (const auto profile = map.Find("profile")) {
    std::filesystem::path path(profile->AsString());
    if (path.is_relative() && !base_dir.empty()) path = std::filesystem::path(base_dir) / path;
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
      profile->Fail("calibration profile '" + path.string() + "' is not a readable file");
    }
    cluster.profile = LoadCalibrationProfile(path.lexically_normal().string());
  }
  ReadReliabilitySections(map, cluster);
  ResolveSpeedSpread(cluster);
  ApplyDefaultEfficiency(cluster);
  return cluster;
}

Cluster LoadClusterFile(const std::string& path, const std::vector<Override>& overrides) {
  const YamlDocument doc = LoadYamlFile(path);
  YamlNode root = doc.Root();
  ApplyOverrides(root, overrides, "cluster");
  const std::filesystem::path p(path);
  return ReadCluster(root, p.stem().string(), p.parent_path().string());
}

}  // namespace paraplan
