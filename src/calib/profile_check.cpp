#include "calib/profile_check.h"

#include <cmath>
#include <map>
#include <sstream>

#include "core/format.h"
#include "core/text_table.h"
#include "cost/compute_cost.h"
#include "hardware/collective_cost.h"
#include "hardware/group_placement.h"
#include "hardware/memory_ops.h"

namespace paraplan {
namespace {

bool PrecisionOf(const std::string& dtype, Precision* out) {
  if (dtype == "bf16")
    *out = Precision::kBf16;
  else if (dtype == "fp16")
    *out = Precision::kFp16;
  else if (dtype == "fp8")
    *out = Precision::kFp8;
  else
    return false;
  return true;
}

// The measured group of a collective row on `cluster`: `ranks` ranks, ranks_per_node of them in
// one innermost-tier domain when the row says (nccl-tests output does), else contiguous. Returns
// false when the row's tier is not one of the cluster's or the group would not reach it.
bool MeasuredGroup(const Cluster& cluster, const RawRow& row, GroupPlacement* out) {
  int tier = -1;
  for (size_t t = 0; t < cluster.network.size(); ++t) {
    if (cluster.network[t].name == row.tier) tier = static_cast<int>(t);
  }
  if (tier < 0 || row.ranks < 2) return false;
  int64_t stride = 1;
  const int64_t span = cluster.network.front().span;
  if (row.ranks_per_node > 0 && span % row.ranks_per_node == 0) stride = span / row.ranks_per_node;
  *out = PlaceGroup(row.ranks, stride, cluster);
  return out->tier == tier;
}

bool CollectiveOpOf(const std::string& name, CollectiveOp* op) {
  for (const auto& [n, value] : CollectiveOpNames()) {
    if (name == n) {
      *op = value;
      return true;
    }
  }
  return false;
}

// Seconds the cost model gives for one raw row on `cluster`; false when it has no counterpart.
bool PredictSeconds(const Cluster& cluster, const RawRow& row, double* seconds) {
  if (row.kind == "collective") {
    // The collective as the cost model costs it (hardware/collective_cost.h): the profile's
    // measured curve or α–β line where it has one for the op and tier, else NCCL's algorithms.
    CollectiveOp op = CollectiveOp::kAllReduce;
    GroupPlacement group;
    if (!CollectiveOpOf(row.op, &op) || !MeasuredGroup(cluster, row, &group)) return false;
    *seconds = CollectiveSeconds(op, static_cast<double>(row.bytes), group, cluster);
    return true;
  }
  const double m = static_cast<double>(row.m), n = static_cast<double>(row.n),
               k = static_cast<double>(row.k);
  if (row.kind == "gemm") {
    Precision precision = Precision::kBf16;
    if (!PrecisionOf(row.dtype, &precision)) return false;
    *seconds = GemmSeconds(cluster, precision, m, n, k);
    return true;
  }
  if (row.kind == "attention") {
    // m = sequence, n = heads, k = head dim; times are per sequence (docs/calibration.md).
    if (row.op.rfind("naive_", 0) == 0) return false;
    const bool backward = row.op.rfind("bwd", 0) == 0;
    const bool causal = row.op.find("_causal") != std::string::npos;
    const double forward_flops = 4.0 * m * m * n * k * (causal ? 0.5 : 1.0);
    *seconds = AttentionSeconds(cluster, backward ? 2.5 * forward_flops : forward_flops, backward,
                                AttentionShape{m, n, k});
    return true;
  }
  // Copies and the element-wise ops of hardware/memory_ops.h (whose rows carry the bytes the cost
  // model counts): bytes at the achieved HBM bandwidth, as the cost model costs every memory-bound
  // op. The profile's per-op bandwidths (memory_ops) are not used: the cost model does not yet.
  if (row.kind == "memory" && (row.op == "copy" || FindMemoryOp(row.op) != nullptr)) {
    *seconds = MemoryBoundSeconds(cluster, static_cast<double>(row.bytes));
    return true;
  }
  return false;
}

double ErrorPct(double predicted_us, double measured_us) {
  return (predicted_us - measured_us) / measured_us * 100.0;
}

struct KindSummary {
  int rows = 0;
  double profile_abs_pct = 0, default_abs_pct = 0;
};

std::map<std::string, KindSummary> Summarize(const ProfileCheck& check) {
  std::map<std::string, KindSummary> out;
  for (const auto& c : check.rows) {
    // Element-wise ops are summarized one op at a time: each is its own kernel.
    const bool op_kernel = c.row.kind == "memory" && c.row.op != "copy";
    const std::string key = c.row.kind + " " + (op_kernel ? c.row.op : c.row.dtype);
    KindSummary& s = out[key];
    ++s.rows;
    s.profile_abs_pct += std::fabs(ErrorPct(c.profile_us, c.row.time_us));
    s.default_abs_pct += std::fabs(ErrorPct(c.default_us, c.row.time_us));
  }
  return out;
}

std::string ShapeText(const RawRow& row) {
  if (row.kind == "memory" && row.op != "copy") {
    return std::to_string(row.m) + "x" + std::to_string(row.n) + " " +
           FormatFixed(static_cast<double>(row.bytes) / (1 << 20), 0) + " MiB";
  }
  if (row.kind == "memory")
    return FormatFixed(static_cast<double>(row.bytes) / (1 << 20), 0) + " MiB";
  if (row.kind == "collective") {
    return std::to_string(row.bytes) + " B x" + std::to_string(row.ranks) + " " + row.tier;
  }
  return std::to_string(row.m) + "x" + std::to_string(row.n) + "x" + std::to_string(row.k);
}

}  // namespace

ProfileCheck CheckProfile(const Cluster& calibrated, const std::vector<RawRow>& rows) {
  Cluster defaults = calibrated;
  defaults.profile.reset();
  ProfileCheck check;
  for (const auto& row : rows) {
    double with_profile = 0, with_defaults = 0;
    if (!PredictSeconds(calibrated, row, &with_profile) ||
        !PredictSeconds(defaults, row, &with_defaults)) {
      ++check.skipped;
      continue;
    }
    check.rows.push_back({row, with_profile * 1e6, with_defaults * 1e6});
  }
  return check;
}

std::string ProfileCheckTable(const ProfileCheck& check) {
  TextTable table(
      {"kind", "op", "dtype", "shape", "measured_us", "profile_us", "err_%", "default_us", "err_%"},
      {false, false, false, false, true, true, true, true, true});
  for (const auto& c : check.rows) {
    table.AddRow(
        {c.row.kind, c.row.op, c.row.dtype, ShapeText(c.row), FormatFixed(c.row.time_us, 1),
         FormatFixed(c.profile_us, 1), FormatFixed(ErrorPct(c.profile_us, c.row.time_us), 1),
         FormatFixed(c.default_us, 1), FormatFixed(ErrorPct(c.default_us, c.row.time_us), 1)});
  }
  TextTable summary({"kind", "rows", "profile MAPE %", "defaults MAPE %"},
                    {false, true, true, true});
  for (const auto& [kind, s] : Summarize(check)) {
    summary.AddRow({kind, std::to_string(s.rows), FormatFixed(s.profile_abs_pct / s.rows, 1),
                    FormatFixed(s.default_abs_pct / s.rows, 1)});
  }
  std::ostringstream out;
  out << table.Render() << "\n\n" << summary.Render() << "\n";
  if (check.skipped > 0) {
    out << check.skipped
        << " rows not predicted (naive attention, the harness's own norm kernel, collectives on "
           "a tier the cluster does not have)\n";
  }
  bool op_rows = false;
  for (const auto& c : check.rows)
    op_rows = op_rows || (c.row.kind == "memory" && c.row.op != "copy");
  if (op_rows) {
    out << "element-wise ops: predicted as the cost model costs them, the bytes it counts (the "
           "rows' bytes) at the copy bandwidth\n";
  }
  return out.str();
}

Json ProfileCheckJson(const ProfileCheck& check) {
  Json rows = Json::MakeArray();
  for (const auto& c : check.rows) {
    Json r = Json::MakeObject();
    r.Set("kind", c.row.kind).Set("op", c.row.op).Set("dtype", c.row.dtype);
    r.Set("m", c.row.m).Set("n", c.row.n).Set("k", c.row.k).Set("bytes", c.row.bytes);
    r.Set("measured_us", c.row.time_us).Set("profile_us", c.profile_us);
    r.Set("default_us", c.default_us);
    rows.Push(std::move(r));
  }
  Json summary = Json::MakeArray();
  for (const auto& [kind, s] : Summarize(check)) {
    Json r = Json::MakeObject();
    r.Set("kind", kind).Set("rows", s.rows);
    r.Set("profile_mape_pct", s.profile_abs_pct / s.rows);
    r.Set("default_mape_pct", s.default_abs_pct / s.rows);
    summary.Push(std::move(r));
  }
  Json out = Json::MakeObject();
  out.Set("rows", std::move(rows)).Set("summary", std::move(summary)).Set("skipped", check.skipped);
  return out;
}

}  // namespace paraplan
