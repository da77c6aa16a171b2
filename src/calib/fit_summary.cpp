#include "calib/fit_summary.h"

#include <algorithm>
#include <sstream>

#include "core/format.h"

namespace paraplan {
namespace {

// Left-aligned text columns separated by two spaces.
std::string FormatRows(const std::vector<std::vector<std::string>>& rows) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], row[i].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - row[i].size() + 2, ' ');
    }
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string FitSummaryTable(const ProfileFitResult& result) {
  std::ostringstream out;
  const CalibrationProfile& p = result.profile;
  if (!result.collectives.empty()) {
    std::vector<std::vector<std::string>> rows = {{"collective", "tier", "ranks", "points",
                                                   "latency_us", "bandwidth_GBps", "R2",
                                                   "max_resid_pct"}};
    for (const auto& c : result.collectives) {
      rows.push_back({c.op, c.tier, std::to_string(c.ranks), std::to_string(c.fit.points),
                      FormatFixed(c.fit.latency_us, 2), FormatFixed(c.fit.bandwidth_GBps, 1),
                      FormatFixed(c.fit.r2, 4), FormatFixed(c.max_abs_residual_pct, 1)});
    }
    out << FormatRows(rows);
  }
  for (const auto& [dtype, points] : p.gemm) {
    double best = 0;
    for (const auto& g : points) best = std::max(best, g.tflops);
    out << "gemm " << dtype << ": " << points.size() << " shapes, best " << FormatFixed(best, 1)
        << " TFLOP/s\n";
  }
  if (!p.attention.empty()) out << "attention: " << p.attention.size() << " shapes\n";
  if (p.memory_bandwidth_GBps > 0) {
    out << "memory bandwidth: " << FormatFixed(p.memory_bandwidth_GBps, 1) << " GB/s\n";
  }
  if (!result.memory_ops.empty()) {
    std::vector<std::vector<std::string>> rows = {
        {"memory op", "rows", "used", "largest_MiB", "GB/s", "of_copy"}};
    for (const auto& m : result.memory_ops) {
      rows.push_back({m.op, std::to_string(m.rows), std::to_string(m.used),
                      FormatFixed(static_cast<double>(m.largest_bytes) / (1 << 20), 0),
                      FormatFixed(m.bandwidth_GBps, 1),
                      m.copy_fraction > 0 ? FormatFixed(m.copy_fraction, 3) : "-"});
    }
    out << FormatRows(rows);
  }
  if (result.collectives.empty() && p.gemm.empty() && p.attention.empty() &&
      p.memory_bandwidth_GBps <= 0 && result.memory_ops.empty()) {
    out << "nothing measured: the profile is empty\n";
  }
  return out.str();
}

Json FitSummaryJson(const ProfileFitResult& result) {
  Json collectives = Json::MakeArray();
  for (const auto& c : result.collectives) {
    Json residuals = Json::MakeArray();
    for (size_t i = 0; i < c.bytes.size(); ++i) {
      residuals.Push(
          Json::MakeObject().Set("bytes", c.bytes[i]).Set("residual_pct", c.residual_pct[i]));
    }
    collectives.Push(Json::MakeObject()
                         .Set("op", c.op)
                         .Set("tier", c.tier)
                         .Set("ranks", c.ranks)
                         .Set("points", c.fit.points)
                         .Set("latency_us", c.fit.latency_us)
                         .Set("bandwidth_GBps", c.fit.bandwidth_GBps)
                         .Set("r2", c.fit.r2)
                         .Set("max_abs_residual_pct", c.max_abs_residual_pct)
                         .Set("residuals", residuals));
  }
  Json gemm = Json::MakeObject();
  for (const auto& [dtype, points] : result.profile.gemm) {
    gemm.Set(dtype, static_cast<int64_t>(points.size()));
  }
  Json memory_ops = Json::MakeArray();
  for (const auto& m : result.memory_ops) {
    memory_ops.Push(Json::MakeObject()
                        .Set("op", m.op)
                        .Set("rows", m.rows)
                        .Set("used", m.used)
                        .Set("largest_bytes", m.largest_bytes)
                        .Set("bandwidth_GBps", m.bandwidth_GBps)
                        .Set("copy_fraction", m.copy_fraction));
  }
  Json warnings = Json::MakeArray();
  for (const auto& w : result.warnings) warnings.Push(w);
  return Json::MakeObject()
      .Set("collectives", collectives)
      .Set("gemm", gemm)
      .Set("attention_points", static_cast<int64_t>(result.profile.attention.size()))
      .Set("memory_bandwidth_GBps", result.profile.memory_bandwidth_GBps)
      .Set("memory_ops", memory_ops)
      .Set("warnings", warnings);
}

std::string FitResidualLines(const ProfileFitResult& result) {
  std::string out;
  for (const auto& c : result.collectives) {
    for (size_t i = 0; i < c.bytes.size(); ++i) {
      out += c.op + " " + c.tier + " " + std::to_string(c.bytes[i]) + " bytes: residual " +
             FormatFixed(c.residual_pct[i], 2) + " %\n";
    }
  }
  return out;
}

}  // namespace paraplan
