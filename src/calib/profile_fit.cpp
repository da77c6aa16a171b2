#include "calib/profile_fit.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "calib/alpha_beta_fit.h"
#include "core/error.h"
#include "hardware/profile_lookup.h"

namespace paraplan {
namespace {

[[noreturn]] void FailAt(const RawRow& row, const std::string& message) {
  throw InputError(SourceLocation{row.file, row.line, 0}, "", message);
}

double Median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// 2·m·n·k FLOPs over µs, in TFLOP/s: flops / (t·1e-6 s) / 1e12.
double TflopsFromFlops(double flops, double time_us) {
  return flops / time_us * 1e-6;
}

// Keeps the first value of each metadata key; a file that disagrees is warned about once per key.
void MergeMetadata(const RawRow& row, std::set<std::string>* warned, ProfileFitResult* result) {
  for (const auto& [key, value] : row.metadata) {
    if (value.empty()) continue;
    auto [it, inserted] = result->profile.metadata.emplace(key, value);
    if (!inserted && it->second != value && warned->insert(row.file + "\n" + key).second) {
      std::string warning = row.file;
      warning += ":";
      warning += std::to_string(row.line);
      warning += ": metadata '";
      warning += key;
      warning += "' is '";
      warning += value;
      warning += "', earlier rows say '";
      warning += it->second;
      warning += "'; keeping the first (warned once per file)";
      result->warnings.push_back(std::move(warning));
    }
  }
}

void FitGemm(const std::vector<RawRow>& rows, CalibrationProfile* profile) {
  std::map<std::tuple<std::string, int64_t, int64_t, int64_t>, std::vector<double>> times;
  for (const auto& row : rows) {
    if (row.kind != "gemm") continue;
    if (row.m < 1 || row.n < 1 || row.k < 1) FailAt(row, "gemm rows need m, n, k >= 1");
    if (row.dtype.empty()) FailAt(row, "gemm rows need a dtype");
    times[{row.dtype, row.m, row.n, row.k}].push_back(row.time_us);
  }
  for (const auto& [key, samples] : times) {
    const auto& [dtype, m, n, k] = key;
    const double flops =
        2.0 * static_cast<double>(m) * static_cast<double>(n) * static_cast<double>(k);
    profile->gemm[dtype].push_back(GemmPoint{m, n, k, TflopsFromFlops(flops, Median(samples))});
  }
}

struct AttentionOp {
  bool naive = false;
  bool backward = false;
  bool causal = false;
};

AttentionOp ParseAttentionOp(const RawRow& row) {
  std::string op = row.op;
  AttentionOp parsed;
  if (op.rfind("naive_", 0) == 0) {
    parsed.naive = true;
    op = op.substr(6);
  }
  const std::string suffix = "_causal";
  if (op.size() > suffix.size() &&
      op.compare(op.size() - suffix.size(), suffix.size(), suffix) == 0) {
    parsed.causal = true;
    op = op.substr(0, op.size() - suffix.size());
  }
  if (op != "fwd" && op != "bwd") {
    FailAt(row, "unknown attention op '" + row.op +
                    "' (valid: fwd, bwd, optionally prefixed naive_ and suffixed _causal)");
  }
  parsed.backward = op == "bwd";
  return parsed;
}

void FitAttention(const std::vector<RawRow>& rows, ProfileFitResult* result) {
  // (seq, heads, head_dim, causal) → {fwd times, bwd times}
  std::map<std::tuple<int64_t, int64_t, int64_t, bool>,
           std::pair<std::vector<double>, std::vector<double>>>
      times;
  int naive_rows = 0;
  for (const auto& row : rows) {
    if (row.kind != "attention") continue;
    const AttentionOp op = ParseAttentionOp(row);
    if (row.m < 1 || row.n < 1 || row.k < 1) {
      FailAt(row, "attention rows need m = seq, n = heads, k = head_dim, all >= 1");
    }
    if (op.naive) {
      ++naive_rows;
      continue;
    }
    auto& entry = times[{row.m, row.n, row.k, op.causal}];
    (op.backward ? entry.second : entry.first).push_back(row.time_us);
  }
  if (naive_rows > 0) {
    result->warnings.push_back(std::to_string(naive_rows) +
                               " attention rows from the naive harness kernel (naive_*) are not "
                               "used: they do not represent a production attention kernel");
  }
  for (const auto& [key, samples] : times) {
    const auto& [seq, heads, head_dim, causal] = key;
    const double s = static_cast<double>(seq);
    const double fwd_flops = 4.0 * s * s * static_cast<double>(heads) *
                             static_cast<double>(head_dim) * (causal ? 0.5 : 1.0);
    AttentionPoint point{seq, heads, head_dim, causal, 0, 0};
    if (!samples.first.empty())
      point.fwd_tflops = TflopsFromFlops(fwd_flops, Median(samples.first));
    if (!samples.second.empty()) {
      point.bwd_tflops = TflopsFromFlops(2.5 * fwd_flops, Median(samples.second));
    }
    result->profile.attention.push_back(point);
  }
}

// Achieved HBM bandwidth: the median over the device-to-device copies (op `copy`) whose size is at
// least a quarter of the largest copy, i.e. the streaming rate once launch cost no longer shows.
// Rows of other memory kernels (the harness's norm) are timed but do not set the bandwidth: they
// measure that kernel's quality as much as the memory.
void FitMemory(const std::vector<RawRow>& rows, CalibrationProfile* profile) {
  int64_t largest = 0;
  for (const auto& row : rows) {
    if (row.kind != "memory") continue;
    if (row.bytes < 1) FailAt(row, "memory rows need bytes >= 1 (bytes read + written)");
    if (row.op == "copy") largest = std::max(largest, row.bytes);
  }
  std::vector<double> bandwidths_GBps;
  for (const auto& row : rows) {
    if (row.kind != "memory" || row.op != "copy" || row.bytes * 4 < largest) continue;
    bandwidths_GBps.push_back(static_cast<double>(row.bytes) / row.time_us * 1e-3);
  }
  if (!bandwidths_GBps.empty()) profile->memory_bandwidth_GBps = Median(bandwidths_GBps);
}

using CollectiveKey = std::tuple<std::string, std::string, int>;  // op, tier, ranks

std::map<CollectiveKey, std::map<int64_t, std::vector<double>>> GroupCollectives(
    const std::vector<RawRow>& rows, ProfileFitResult* result) {
  std::map<CollectiveKey, std::map<int64_t, std::vector<double>>> groups;
  int single_rank_rows = 0;
  for (const auto& row : rows) {
    if (row.kind != "collective") continue;
    try {
      BusBandwidthFactor(row.op, 2);  // validates the op name
    } catch (const InputError& e) {
      FailAt(row, e.message());
    }
    if (row.tier.empty()) FailAt(row, "nccl rows need a tier (nvlink, scaleout, ...)");
    if (row.bytes < 1) FailAt(row, "nccl rows need bytes >= 1");
    if (row.ranks < 2) {
      ++single_rank_rows;
      continue;
    }
    groups[{row.op, row.tier, row.ranks}][row.bytes].push_back(row.time_us);
  }
  if (single_rank_rows > 0) {
    result->warnings.push_back(std::to_string(single_rank_rows) +
                               " nccl rows with a single rank are not used (no communication)");
  }
  return groups;
}

void FitCollectives(const std::vector<RawRow>& rows, ProfileFitResult* result) {
  const auto groups = GroupCollectives(rows, result);
  // The map is ordered by (op, tier, ranks): the last group of an (op, tier) has the most ranks.
  std::map<std::pair<std::string, std::string>, CollectiveFitReport> kept;
  for (const auto& [key, by_size] : groups) {
    const auto& [op, tier, ranks] = key;
    std::vector<AlphaBetaPoint> points;
    CollectiveFitReport report{op, tier, ranks, {}, {}, {}, 0};
    const double factor = BusBandwidthFactor(op, ranks);
    for (const auto& [bytes, samples] : by_size) {
      points.push_back({static_cast<double>(bytes) * factor, Median(samples)});
      report.bytes.push_back(bytes);
    }
    AlphaBetaResult fit;
    try {
      fit = FitAlphaBeta(points);
    } catch (const InputError& e) {
      std::string message = op;
      message += " on ";
      message += tier;
      message += " with ";
      message += std::to_string(ranks);
      message += " ranks: ";
      message += e.message();
      throw InputError(message);
    }
    report.fit = fit.fit;
    report.residual_pct = fit.residual_pct;
    report.max_abs_residual_pct = fit.max_abs_residual_pct;
    kept[{op, tier}] = report;
  }
  for (auto& [key, report] : kept) {
    result->profile.collectives[key.first][key.second] = report.fit;
    result->collectives.push_back(std::move(report));
  }
}

}  // namespace

ProfileFitResult FitProfile(const std::vector<RawRow>& rows) {
  ProfileFitResult result;
  std::set<std::string> warned;
  for (const auto& row : rows) MergeMetadata(row, &warned, &result);
  FitGemm(rows, &result.profile);
  FitAttention(rows, &result);
  FitMemory(rows, &result.profile);
  FitCollectives(rows, &result);
  return result;
}

}  // namespace paraplan
