#include "config/efficiency_loader.h"

#include <filesystem>

#include "config/resolve.h"
#include "config/yaml_reader.h"
#include "hardware/efficiency_transfer.h"
#include "hardware/gpu_family.h"

namespace paraplan {
namespace {

const std::vector<std::string> kFields = {
    "gemm_max",        "gemm_half_dim",     "fp8_gemm_max",       "attention_fwd",
    "attention_bwd",   "memory_bandwidth",  "attention_half_seq", "kernel_launch_us",
    "step_overhead_s", "fa2_attention_fwd", "fa2_attention_bwd",  "link"};

// A fraction in [0, 1] where 0 means "the same as the fused kernel's".
double FractionOrZero(const YamlNode& n) {
  const double v = n.AsDouble();
  if (v < 0 || v > 1.0) n.Fail("must be 0 or a fraction in (0, 1], got " + n.AsString());
  return v;
}

double Fraction(const YamlNode& n) {
  const double v = n.AsPositiveDouble();
  if (v > 1.0) n.Fail("must be a fraction in (0, 1], got " + n.AsString());
  return v;
}

// Fields present in `node` overwrite those of `base`.
Efficiency ReadEntry(const YamlNode& node, Efficiency base, std::vector<std::string> allowed) {
  YamlMap m(node, std::move(allowed));
  if (auto v = m.Find("gemm_max")) base.gemm_max = Fraction(*v);
  if (auto v = m.Find("gemm_half_dim")) base.gemm_half_dim = v->AsPositiveDouble();
  if (auto v = m.Find("fp8_gemm_max")) base.fp8_gemm_max = Fraction(*v);
  if (auto v = m.Find("attention_fwd")) base.attention_fwd = Fraction(*v);
  if (auto v = m.Find("attention_bwd")) base.attention_bwd = Fraction(*v);
  if (auto v = m.Find("memory_bandwidth")) base.memory_bandwidth = Fraction(*v);
  if (auto v = m.Find("attention_half_seq")) {
    base.attention_half_seq = v->AsDouble();
    if (base.attention_half_seq < 0) v->Fail("must be >= 0");
  }
  if (auto v = m.Find("fa2_attention_fwd")) base.fa2_attention_fwd = FractionOrZero(*v);
  if (auto v = m.Find("fa2_attention_bwd")) base.fa2_attention_bwd = FractionOrZero(*v);
  if (auto v = m.Find("kernel_launch_us")) {
    base.kernel_launch_us = v->AsDouble();
    if (base.kernel_launch_us < 0) v->Fail("must be >= 0");
  }
  if (auto v = m.Find("step_overhead_s")) {
    base.step_overhead_s = v->AsDouble();
    if (base.step_overhead_s < 0) v->Fail("must be >= 0");
  }
  if (auto v = m.Find("link")) {
    for (const auto& [tier, value] : MapEntries(*v)) base.link[tier] = Fraction(value);
  }
  return base;
}

// An entry's `match` names a model (GpuModel) or, when it is no known model, a substring.
bool Matches(const std::string& match, const std::string& gpu_name) {
  if (match.empty()) return false;
  if (GpuModel(match) == match && GpuFamily(match) != match) return GpuModel(gpu_name) == match;
  return gpu_name.find(match) != std::string::npos;
}

struct FileLookup {
  Efficiency efficiency;
  std::string entry;  // the matching entry's `match`, or "default"
  std::string unfitted_from;
  std::string unfitted_hardware;
};

FileLookup Lookup(const std::string& path, const std::string& gpu_name) {
  YamlDocument doc = LoadYamlFile(path);
  YamlMap top(doc.Root(), {"default", "gpus", "unfitted"});
  FileLookup out;
  out.entry = "default";
  if (auto d = top.Find("default")) out.efficiency = ReadEntry(*d, out.efficiency, kFields);
  if (auto u = top.Find("unfitted")) {
    YamlMap unfitted(*u, {"from", "hardware"});
    out.unfitted_from = unfitted.Required("from").AsString();
    out.unfitted_hardware = unfitted.Required("hardware").AsString();
  }
  if (auto gpus = top.Find("gpus")) {
    std::vector<std::string> allowed = kFields;
    allowed.push_back("match");
    for (const YamlNode& item : gpus->Elements()) {
      YamlMap entry(item, allowed);
      const std::string match = entry.Required("match").AsString();
      if (Matches(match, gpu_name)) {
        out.efficiency = ReadEntry(item, out.efficiency, allowed);
        out.entry = match;
        return out;
      }
    }
  }
  return out;
}

std::string EfficiencyFilePath() {
  for (const std::string& dir : DataSearchDirs()) {
    const std::filesystem::path path = std::filesystem::path(dir) / "hardware" / "efficiency.yaml";
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) return path.string();
  }
  return "";
}

}  // namespace

Efficiency LoadEfficiencyFile(const std::string& path, const std::string& gpu_name) {
  return Lookup(path, gpu_name).efficiency;
}

Efficiency DefaultEfficiencyFor(const std::string& gpu_name) {
  const std::string path = EfficiencyFilePath();
  return path.empty() ? Efficiency{} : LoadEfficiencyFile(path, gpu_name);
}

Efficiency LoadClusterEfficiency(const std::string& path, const Cluster& cluster,
                                 EfficiencyOrigin* origin) {
  const FileLookup found = Lookup(path, cluster.gpu.name);
  const std::string family = GpuFamily(cluster.gpu.name);
  const bool known_family = family != cluster.gpu.name;
  if (found.entry != "default" || !known_family || found.unfitted_from.empty() ||
      GpuModel(cluster.gpu.name) == found.unfitted_from) {
    if (origin) {
      origin->entry = found.entry;
      origin->sources = {{"all", "hardware/efficiency.yaml, entry '" + found.entry + "'"}};
    }
    return found.efficiency;
  }
  // A GPU nobody fitted: the reference model's fitted entry, carried over by physics.
  const Cluster reference = LoadCluster(found.unfitted_hardware);
  const FileLookup fitted = Lookup(path, reference.gpu.name);
  if (fitted.entry == "default") {
    throw InputError({path, 0, 0}, "unfitted.from",
                     "reference '" + found.unfitted_from + "' has no entry of its own");
  }
  std::vector<std::string> tiers;
  for (const auto& tier : cluster.network) tiers.push_back(tier.name);
  TransferredEfficiency transferred =
      TransferEfficiency(fitted.efficiency, fitted.entry, reference.gpu, cluster.gpu, tiers);
  if (origin) {
    origin->entry = "transferred from " + fitted.entry;
    origin->sources = std::move(transferred.sources);
  }
  return transferred.efficiency;
}

std::string DefaultUnfittedReference() {
  const std::string path = EfficiencyFilePath();
  return path.empty() ? "" : Lookup(path, "").unfitted_from;
}

Efficiency DefaultClusterEfficiency(const Cluster& cluster, EfficiencyOrigin* origin) {
  const std::string path = EfficiencyFilePath();
  if (path.empty()) {
    if (origin) *origin = {"built-in", {{"all", "src/hardware/efficiency.h (no efficiency.yaml)"}}};
    return Efficiency{};
  }
  return LoadClusterEfficiency(path, cluster, origin);
}

bool IsStructDefault(const Efficiency& e) {
  return e == Efficiency{};
}

void ApplyDefaultEfficiency(Cluster& cluster) {
  if (IsStructDefault(cluster.efficiency)) {
    cluster.efficiency = DefaultClusterEfficiency(cluster, nullptr);
  }
}

}  // namespace paraplan
