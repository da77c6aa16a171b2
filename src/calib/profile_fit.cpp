#include "calib/profile_fit.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>

#include "calib/alpha_beta_fit.h"
#include "core/error.h"
#include "core/format.h"
#include "hardware/memory_ops.h"
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

// The median bytes / time in GB/s over `rows` whose bytes are at least a quarter of the largest,
// i.e. the streaming rate once launch cost no longer shows; sets *used to their count.
double LargeRowBandwidthGBps(const std::vector<const RawRow*>& rows, int* used) {
  int64_t largest = 0;
  for (const RawRow* row : rows) largest = std::max(largest, row->bytes);
  std::vector<double> bandwidths_GBps;
  for (const RawRow* row : rows) {
    if (row->bytes * 4 < largest) continue;
    bandwidths_GBps.push_back(static_cast<double>(row->bytes) / row->time_us * 1e-3);
  }
  *used = static_cast<int>(bandwidths_GBps.size());
  return bandwidths_GBps.empty() ? 0.0 : Median(bandwidths_GBps);
}

// Achieved HBM bandwidth: the large device-to-device copies (op `copy`). The harness's own norm
// kernel (op `norm`) is timed but sets nothing: it measures that kernel as much as the memory.
// The element-wise ops of hardware/memory_ops.h each get their own bandwidth (memory_ops).
void FitMemory(const std::vector<RawRow>& rows, ProfileFitResult* result) {
  std::vector<const RawRow*> copies;
  std::map<std::string, std::vector<const RawRow*>> by_op;
  std::set<std::string> warned;
  for (const auto& row : rows) {
    if (row.kind != "memory") continue;
    if (row.bytes < 1) FailAt(row, "memory rows need bytes >= 1 (bytes read + written)");
    if (row.op == "copy") {
      copies.push_back(&row);
      continue;
    }
    if (row.op == "norm") continue;
    const MemoryOpSpec* spec = FindMemoryOp(row.op);
    if (spec == nullptr) {
      std::string valid = "copy, norm";
      for (const auto& op : kMemoryOps) valid += ", " + std::string(op.name);
      FailAt(row, "unknown memory op '" + row.op + "' (valid: " + valid + ")");
    }
    if (row.m < 1 || row.n < 1) FailAt(row, "memory op rows need m, n >= 1 (m x n elements)");
    const double counted =
        spec->bytes_per_element * static_cast<double>(row.m) * static_cast<double>(row.n);
    if (std::fabs(counted - static_cast<double>(row.bytes)) > 0.5 && warned.insert(row.op).second) {
      result->warnings.push_back(row.file + ":" + std::to_string(row.line) + ": " + row.op +
                                 " bytes " + std::to_string(row.bytes) + " differ from the " +
                                 FormatShortest(spec->bytes_per_element) +
                                 " B per element x m x n the cost model counts (" +
                                 FormatShortest(counted) +
                                 "); fitted as written (warned once "
                                 "per op)");
    }
    by_op[row.op].push_back(&row);
  }
  int used = 0;
  if (!copies.empty()) {
    result->profile.memory_bandwidth_GBps = LargeRowBandwidthGBps(copies, &used);
  }
  for (const auto& [op, op_rows] : by_op) {
    MemoryOpFitReport report;
    report.op = op;
    report.rows = static_cast<int>(op_rows.size());
    for (const RawRow* row : op_rows)
      report.largest_bytes = std::max(report.largest_bytes, row->bytes);
    report.bandwidth_GBps = LargeRowBandwidthGBps(op_rows, &report.used);
    if (result->profile.memory_bandwidth_GBps > 0) {
      report.copy_fraction = report.bandwidth_GBps / result->profile.memory_bandwidth_GBps;
    }
    result->profile.memory_ops[op] = report.bandwidth_GBps;
    result->memory_ops.push_back(report);
  }
}

using CollectiveKey = std::tuple<std::string, std::string, int>;  // op, tier, ranks

// Ranks per node of a sweep across several nodes (nccl-tests output names the hosts): only
// where 1 < per node < ranks, the sweep of a whole hierarchical collective (collective_cost.cpp,
// WholeSweepSeconds); 0 otherwise, or when the rows of one (op, tier, ranks) disagree.
std::map<CollectiveKey, int> SweepRanksPerNode(const std::vector<RawRow>& rows) {
  std::map<CollectiveKey, int> out;
  for (const auto& row : rows) {
    if (row.kind != "collective" || row.ranks < 2) continue;
    const int per_node =
        row.ranks_per_node > 1 && row.ranks_per_node < row.ranks ? row.ranks_per_node : 0;
    const CollectiveKey key{row.op, row.tier, row.ranks};
    auto [it, inserted] = out.emplace(key, per_node);
    if (!inserted && it->second != per_node) it->second = 0;
  }
  return out;
}

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
  const auto per_node = SweepRanksPerNode(rows);
  // The map is ordered by (op, tier, ranks): the last group of an (op, tier) has the most ranks.
  std::map<std::pair<std::string, std::string>, CollectiveFitReport> kept;
  for (const auto& [key, by_size] : groups) {
    const auto& [op, tier, ranks] = key;
    std::vector<AlphaBetaPoint> points;
    CollectiveFitReport report{op, tier, ranks, {}, {}, {}, 0};
    const double factor = BusBandwidthFactor(op, ranks);
    std::vector<CollectivePoint> curve;
    for (const auto& [bytes, samples] : by_size) {
      const double median_us = Median(samples);
      points.push_back({static_cast<double>(bytes) * factor, median_us});
      curve.push_back({bytes, median_us});
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
    report.fit.ranks = ranks;
    report.fit.ranks_per_node = per_node.at(key);
    report.fit.curve = std::move(curve);
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
  FitMemory(rows, &result);
  FitCollectives(rows, &result);
  return result;
}

}  // namespace paraplan
