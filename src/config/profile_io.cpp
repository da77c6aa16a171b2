#include "config/profile_io.h"

#include <yaml-cpp/yaml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "config/yaml_reader.h"
#include "core/error.h"
#include "core/format.h"
#include "core/strings.h"
#include "hardware/gpu_variability.h"
#include "hardware/memory_ops.h"

namespace paraplan {
namespace {

const std::set<std::string> kCollectiveOps = {"all_gather", "all_reduce", "all_to_all",
                                              "reduce_scatter", "send_recv"};
const std::set<std::string> kGemmDtypes = {"bf16", "fp16", "fp32", "fp8", "tf32"};

// The YAML document being read, for error locations.
struct Reader {
  std::string origin;

  [[noreturn]] void Fail(const YAML::Node& node, const std::string& key_path,
                         const std::string& message) const {
    const YAML::Mark mark = node.Mark();
    SourceLocation where{origin, mark.line >= 0 ? mark.line + 1 : 0,
                         mark.column >= 0 ? mark.column + 1 : 0};
    throw InputError(where, key_path, message);
  }

  void RequireMap(const YAML::Node& node, const std::string& key_path) const {
    if (!node.IsMap()) Fail(node, key_path, "must be a mapping");
  }

  // A mapping key as text; a key that is itself a list or a mapping is an input error.
  std::string Key(const YAML::Node& key, const std::string& key_path) const {
    if (!key.IsScalar()) Fail(key, key_path, "keys must be plain names, not lists or mappings");
    return key.Scalar();
  }

  // Rejects keys outside `allowed`, listing the valid ones.
  void CheckKeys(const YAML::Node& node, const std::string& key_path,
                 const std::set<std::string>& allowed) const {
    RequireMap(node, key_path);
    for (const auto& item : node) {
      const std::string key = Key(item.first, key_path);
      if (allowed.count(key) == 0) {
        Fail(item.first, KeyPath(key_path, key), "unknown key (valid keys: " + Join(allowed) + ")");
      }
    }
  }

  static std::string KeyPath(const std::string& path, const std::string& key) {
    return path.empty() ? key : path + "." + key;
  }

  double Number(const YAML::Node& node, const std::string& key_path) const {
    if (!node.IsScalar()) Fail(node, key_path, "must be a number");
    double value = 0;
    if (!YAML::convert<double>::decode(node, value) || !std::isfinite(value)) {
      Fail(node, key_path, "must be a number, got '" + node.Scalar() + "'");
    }
    return value;
  }

  double Positive(const YAML::Node& node, const std::string& key_path) const {
    const double value = Number(node, key_path);
    if (value <= 0) Fail(node, key_path, "must be > 0, got " + node.Scalar());
    return value;
  }

  double NonNegative(const YAML::Node& node, const std::string& key_path) const {
    const double value = Number(node, key_path);
    if (value < 0) Fail(node, key_path, "must be >= 0, got " + node.Scalar());
    return value;
  }

  int64_t Count(const YAML::Node& node, const std::string& key_path, int64_t min) const {
    if (!node.IsScalar()) Fail(node, key_path, "must be an integer");
    int64_t value = 0;
    if (!YAML::convert<int64_t>::decode(node, value)) {
      Fail(node, key_path, "must be an integer, got '" + node.Scalar() + "'");
    }
    if (value < min) {
      Fail(node, key_path, "must be >= " + std::to_string(min) + ", got " + node.Scalar());
    }
    return value;
  }

  bool Bool(const YAML::Node& node, const std::string& key_path) const {
    bool value = false;
    if (!node.IsScalar() || !YAML::convert<bool>::decode(node, value)) {
      Fail(node, key_path, "must be true or false");
    }
    return value;
  }

  // The value of a required key of a mapping.
  YAML::Node Required(const YAML::Node& map, const std::string& key,
                      const std::string& key_path) const {
    YAML::Node value = map[key];
    if (!value) Fail(map, KeyPath(key_path, key), "is required");
    return value;
  }
};

CollectiveFit ReadCollectiveFit(const Reader& r, const YAML::Node& node, const std::string& path) {
  r.CheckKeys(node, path,
              {"bandwidth_GBps", "curve", "latency_us", "points", "r2", "ranks", "ranks_per_node"});
  CollectiveFit fit;
  fit.latency_us = r.NonNegative(r.Required(node, "latency_us", path), path + ".latency_us");
  fit.bandwidth_GBps =
      r.Positive(r.Required(node, "bandwidth_GBps", path), path + ".bandwidth_GBps");
  if (node["r2"]) {
    fit.r2 = r.Number(node["r2"], path + ".r2");
    if (fit.r2 > 1) r.Fail(node["r2"], path + ".r2", "must be <= 1, got " + node["r2"].Scalar());
  }
  if (node["points"]) fit.points = static_cast<int>(r.Count(node["points"], path + ".points", 0));
  if (node["ranks"]) {
    const int64_t ranks = r.Count(node["ranks"], path + ".ranks", 2);
    if (ranks > 1000000) r.Fail(node["ranks"], path + ".ranks", "must be <= 1000000");
    fit.ranks = static_cast<int>(ranks);
  }
  if (node["ranks_per_node"]) {
    const YAML::Node value = node["ranks_per_node"];
    const std::string key = path + ".ranks_per_node";
    const int64_t per_node = r.Count(value, key, 1);
    if (fit.ranks < 2) r.Fail(value, key, "needs the sweep's `ranks`");
    if (per_node > fit.ranks || fit.ranks % per_node != 0) {
      r.Fail(value, key, "must divide ranks (" + std::to_string(fit.ranks) + ")");
    }
    fit.ranks_per_node = static_cast<int>(per_node);
  }
  if (node["curve"]) {
    const YAML::Node curve = node["curve"];
    const std::string curve_path = path + ".curve";
    if (!curve.IsSequence()) r.Fail(curve, curve_path, "must be a list of {bytes, time_us}");
    for (size_t i = 0; i < curve.size(); ++i) {
      const YAML::Node item = curve[i];
      const std::string item_path = curve_path + "[" + std::to_string(i) + "]";
      r.CheckKeys(item, item_path, {"bytes", "time_us"});
      CollectivePoint point;
      point.bytes = r.Count(r.Required(item, "bytes", item_path), item_path + ".bytes", 1);
      point.time_us = r.Positive(r.Required(item, "time_us", item_path), item_path + ".time_us");
      if (!fit.curve.empty() && point.bytes <= fit.curve.back().bytes) {
        r.Fail(item, item_path + ".bytes", "must grow from one point to the next");
      }
      fit.curve.push_back(point);
    }
  }
  return fit;
}

void ReadCollectives(const Reader& r, const YAML::Node& node, CalibrationProfile* profile) {
  r.RequireMap(node, "collectives");
  for (const auto& op_item : node) {
    const std::string op = r.Key(op_item.first, "collectives");
    const std::string op_path = "collectives." + op;
    if (kCollectiveOps.count(op) == 0) {
      r.Fail(op_item.first, op_path, "unknown collective (valid: " + Join(kCollectiveOps) + ")");
    }
    r.RequireMap(op_item.second, op_path);
    for (const auto& tier_item : op_item.second) {
      const std::string tier = r.Key(tier_item.first, op_path);
      std::string tier_path = op_path;
      tier_path += '.';
      tier_path += tier;
      profile->collectives[op][tier] = ReadCollectiveFit(r, tier_item.second, tier_path);
    }
  }
}

void ReadGemm(const Reader& r, const YAML::Node& node, CalibrationProfile* profile) {
  r.RequireMap(node, "gemm");
  for (const auto& dtype_item : node) {
    const std::string dtype = r.Key(dtype_item.first, "gemm");
    const std::string path = "gemm." + dtype;
    if (kGemmDtypes.count(dtype) == 0) {
      r.Fail(dtype_item.first, path, "unknown dtype (valid: " + Join(kGemmDtypes) + ")");
    }
    if (!dtype_item.second.IsSequence()) r.Fail(dtype_item.second, path, "must be a list");
    auto& points = profile->gemm[dtype];
    for (size_t i = 0; i < dtype_item.second.size(); ++i) {
      const YAML::Node item = dtype_item.second[i];
      const std::string p = path + "[" + std::to_string(i) + "]";
      r.CheckKeys(item, p, {"k", "m", "n", "tflops"});
      GemmPoint point;
      point.m = r.Count(r.Required(item, "m", p), p + ".m", 1);
      point.n = r.Count(r.Required(item, "n", p), p + ".n", 1);
      point.k = r.Count(r.Required(item, "k", p), p + ".k", 1);
      point.tflops = r.Positive(r.Required(item, "tflops", p), p + ".tflops");
      points.push_back(point);
    }
  }
}

void ReadAttention(const Reader& r, const YAML::Node& node, CalibrationProfile* profile) {
  if (!node.IsSequence()) r.Fail(node, "attention", "must be a list");
  for (size_t i = 0; i < node.size(); ++i) {
    const YAML::Node item = node[i];
    const std::string p = "attention[" + std::to_string(i) + "]";
    r.CheckKeys(item, p, {"bwd_tflops", "causal", "fwd_tflops", "head_dim", "heads", "seq"});
    AttentionPoint point;
    point.seq = r.Count(r.Required(item, "seq", p), p + ".seq", 1);
    point.heads = r.Count(r.Required(item, "heads", p), p + ".heads", 1);
    point.head_dim = r.Count(r.Required(item, "head_dim", p), p + ".head_dim", 1);
    if (item["causal"]) point.causal = r.Bool(item["causal"], p + ".causal");
    if (item["fwd_tflops"]) point.fwd_tflops = r.NonNegative(item["fwd_tflops"], p + ".fwd_tflops");
    if (item["bwd_tflops"]) point.bwd_tflops = r.NonNegative(item["bwd_tflops"], p + ".bwd_tflops");
    profile->attention.push_back(point);
  }
}

void ReadMemoryOps(const Reader& r, const YAML::Node& node, CalibrationProfile* profile) {
  r.RequireMap(node, "memory_ops");
  for (const auto& item : node) {
    const std::string op = r.Key(item.first, "memory_ops");
    if (FindMemoryOp(op) == nullptr) {
      std::string valid;
      for (const auto& spec : kMemoryOps)
        valid += (valid.empty() ? "" : ", ") + std::string(spec.name);
      r.Fail(item.first, "memory_ops." + op, "unknown op (valid: " + valid + ")");
    }
    profile->memory_ops[op] = r.Positive(item.second, "memory_ops." + op);
  }
}

void ReadMetadata(const Reader& r, const YAML::Node& node, CalibrationProfile* profile) {
  r.RequireMap(node, "metadata");
  for (const auto& item : node) {
    const std::string key = r.Key(item.first, "metadata");
    if (!item.second.IsScalar()) r.Fail(item.second, "metadata." + key, "must be a string");
    profile->metadata[key] = item.second.Scalar();
  }
}

std::string Quoted(const std::string& text) {
  return "\"" + JsonEscape(text) + "\"";
}

// Measurements carry no more than 6 significant digits; printing more is noise.
std::string Number6(double value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%.6g", value);
  return FormatShortest(std::strtod(text, nullptr));
}

}  // namespace

std::shared_ptr<const CalibrationProfile> ParseCalibrationProfile(const std::string& text,
                                                                  const std::string& origin) {
  Reader r{origin};
  const YAML::Node root = LoadOneYamlDocument(text, origin);
  auto profile = std::make_shared<CalibrationProfile>();
  profile->source_path = origin;
  // An empty (or comment-only) profile measures nothing: naming it would silently mean the
  // built-in defaults, so it is refused.
  if (root.IsNull()) {
    throw InputError(SourceLocation{origin, 0, 0}, "",
                     "empty calibration profile: no measurements (expected at least one of "
                     "collectives, gemm, attention, memory_bandwidth_GBps, memory_ops, "
                     "gpu_speed_sigma)");
  }
  auto context = std::make_shared<YamlContext>();
  context->file = origin;
  CheckYamlTree(root, context);  // duplicate keys, depth, alias bombs
  r.CheckKeys(root, "",
              {"attention", "collectives", "gemm", "gpu_speed_sigma", "memory_bandwidth_GBps",
               "memory_ops", "metadata"});
  if (root["collectives"]) ReadCollectives(r, root["collectives"], profile.get());
  if (root["gemm"]) ReadGemm(r, root["gemm"], profile.get());
  if (root["attention"]) ReadAttention(r, root["attention"], profile.get());
  if (root["memory_bandwidth_GBps"]) {
    profile->memory_bandwidth_GBps =
        r.NonNegative(root["memory_bandwidth_GBps"], "memory_bandwidth_GBps");
  }
  if (root["memory_ops"]) ReadMemoryOps(r, root["memory_ops"], profile.get());
  if (root["gpu_speed_sigma"]) {
    profile->gpu_speed_sigma = r.NonNegative(root["gpu_speed_sigma"], "gpu_speed_sigma");
    if (profile->gpu_speed_sigma >= kMaxSpeedSigma) {
      r.Fail(root["gpu_speed_sigma"], "gpu_speed_sigma",
             "must be below " + FormatShortest(kMaxSpeedSigma) +
                 " (a standard deviation of one GPU's time over the median's, as a fraction)");
    }
  }
  if (root["metadata"]) ReadMetadata(r, root["metadata"], profile.get());
  return profile;
}

std::shared_ptr<const CalibrationProfile> LoadCalibrationProfile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(SourceLocation{path, 0, 0}, "", "cannot open calibration profile");
  std::ostringstream text;
  text << in.rdbuf();
  return ParseCalibrationProfile(text.str(), path);
}

std::string ProfileToYaml(const CalibrationProfile& profile) {
  std::ostringstream out;
  out << "# paraplan calibration profile (written by `paraplan calibrate fit`)\n";
  out << "memory_bandwidth_GBps: " << Number6(profile.memory_bandwidth_GBps) << "\n";
  if (!profile.memory_ops.empty()) {
    out << "memory_ops:\n";
    for (const auto& [op, GBps] : profile.memory_ops)
      out << "  " << op << ": " << Number6(GBps) << "\n";
  }
  if (profile.gpu_speed_sigma > 0)
    out << "gpu_speed_sigma: " << Number6(profile.gpu_speed_sigma) << "\n";
  out << "collectives:" << (profile.collectives.empty() ? " {}\n" : "\n");
  for (const auto& [op, tiers] : profile.collectives) {
    out << "  " << op << ":\n";
    for (const auto& [tier, fit] : tiers) {
      out << "    " << tier << ":\n";
      out << "      {latency_us: " << Number6(fit.latency_us)
          << ", bandwidth_GBps: " << Number6(fit.bandwidth_GBps) << ", r2: " << Number6(fit.r2)
          << ", points: " << fit.points;
      if (fit.ranks >= 2) out << ", ranks: " << fit.ranks;
      if (fit.ranks >= 2 && fit.ranks_per_node >= 1)
        out << ", ranks_per_node: " << fit.ranks_per_node;
      if (!fit.curve.empty()) {
        out << ",\n       curve: [";
        for (size_t i = 0; i < fit.curve.size(); ++i) {
          out << (i == 0 ? "" : ",\n               ") << "{bytes: " << fit.curve[i].bytes
              << ", time_us: " << Number6(fit.curve[i].time_us) << "}";
        }
        out << "]";
      }
      out << "}\n";
    }
  }
  out << "gemm:" << (profile.gemm.empty() ? " {}\n" : "\n");
  for (const auto& [dtype, points] : profile.gemm) {
    out << "  " << dtype << ":" << (points.empty() ? " []\n" : "\n");
    for (const auto& p : points) {
      out << "    - {m: " << p.m << ", n: " << p.n << ", k: " << p.k
          << ", tflops: " << Number6(p.tflops) << "}\n";
    }
  }
  out << "attention:" << (profile.attention.empty() ? " []\n" : "\n");
  for (const auto& a : profile.attention) {
    out << "  - {seq: " << a.seq << ", heads: " << a.heads << ", head_dim: " << a.head_dim
        << ", causal: " << (a.causal ? "true" : "false")
        << ", fwd_tflops: " << Number6(a.fwd_tflops) << ", bwd_tflops: " << Number6(a.bwd_tflops)
        << "}\n";
  }
  out << "metadata:" << (profile.metadata.empty() ? " {}\n" : "\n");
  for (const auto& [key, value] : profile.metadata) {
    out << "  " << key << ": " << Quoted(value) << "\n";
  }
  return out.str();
}

void SaveCalibrationProfile(const CalibrationProfile& profile, const std::string& path) {
  const std::string temp = path + ".tmp";
  {
    std::ofstream out(temp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError(SourceLocation{path, 0, 0}, "", "cannot write profile");
    out << ProfileToYaml(profile);
    out.flush();
    if (!out) throw InputError(SourceLocation{path, 0, 0}, "", "cannot write profile");
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::filesystem::remove(temp, ec);
    throw InputError(SourceLocation{path, 0, 0}, "", "cannot replace profile file");
  }
}

}  // namespace paraplan
