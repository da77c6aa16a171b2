#include "config/efficiency_loader.h"

#include <filesystem>

#include "config/resolve.h"
#include "config/yaml_reader.h"

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

}  // namespace

Efficiency LoadEfficiencyFile(const std::string& path, const std::string& gpu_name) {
  YamlDocument doc = LoadYamlFile(path);
  YamlMap top(doc.Root(), {"default", "gpus"});
  Efficiency base;
  if (auto d = top.Find("default")) base = ReadEntry(*d, base, kFields);
  if (auto gpus = top.Find("gpus")) {
    std::vector<std::string> allowed = kFields;
    allowed.push_back("match");
    for (const YamlNode& item : gpus->Elements()) {
      YamlMap entry(item, allowed);
      const std::string match = entry.Required("match").AsString();
      if (!match.empty() && gpu_name.find(match) != std::string::npos) {
        return ReadEntry(item, base, allowed);
      }
    }
  }
  return base;
}

Efficiency DefaultEfficiencyFor(const std::string& gpu_name) {
  for (const std::string& dir : DataSearchDirs()) {
    const std::filesystem::path path = std::filesystem::path(dir) / "hardware" / "efficiency.yaml";
    std::error_code ec;
    if (std::filesystem::is_regular_file(path, ec)) {
      return LoadEfficiencyFile(path.string(), gpu_name);
    }
  }
  return Efficiency{};
}

bool IsStructDefault(const Efficiency& e) {
  return e == Efficiency{};
}

void ApplyDefaultEfficiency(Cluster& cluster) {
  if (IsStructDefault(cluster.efficiency))
    cluster.efficiency = DefaultEfficiencyFor(cluster.gpu.name);
}

}  // namespace paraplan
