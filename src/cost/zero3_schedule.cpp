#include "cost/zero3_schedule.h"

#include <algorithm>
#include <cmath>

namespace paraplan {
namespace {

double Ceil(double a, double b) {
  return std::ceil(a / b);
}

// Elements of `p` padded as the issuer shards it over n ranks (zero3_schedule.h).
double Padded(Zero3Issuer issuer, const Zero3Param& p, double n) {
  if (issuer == Zero3Issuer::kFsdp2) {
    const double rows = p.rows > 0 ? p.rows : p.elements;
    return Ceil(rows, n) * n * (p.elements / rows);
  }
  return Ceil(p.elements, n) * n;  // DeepSpeed per parameter; FSDP1 pads the flat unit below
}

struct Collector {
  Zero3Schedule out;
  void Add(CollectiveOp op, bool forward, double bytes) {
    if (bytes <= 0) return;
    out.calls.push_back({op, forward, bytes});
    if (op == CollectiveOp::kAllGather) {
      ++out.all_gathers;
      out.gather_bytes += bytes;
    } else {
      ++out.reduce_scatters;
      out.reduce_scatter_bytes += bytes;
    }
  }
};

// FSDP1 and FSDP2: one gather per unit before its forward; backward from the last unit, the
// next unit's gather issued before the current unit's reduce-scatter, the root (unit 0) never
// re-gathered and reduce-scattered last; FSDP2 under torchtitan also keeps the last block.
Zero3Schedule PerUnit(Zero3Issuer issuer, const std::vector<Zero3Param>& params, double n,
                      double wb, double gb) {
  std::vector<double> unit;  // padded elements per unit, by unit number
  for (const Zero3Param& p : params) {
    const size_t u = static_cast<size_t>(std::max<int64_t>(p.unit, 0));
    if (unit.size() <= u) unit.resize(u + 1, 0.0);
    unit[u] += issuer == Zero3Issuer::kFsdp1 ? p.elements : Padded(issuer, p, n);
  }
  if (issuer == Zero3Issuer::kFsdp1) {
    for (double& u : unit) u = Ceil(u, n) * n;
  }
  Collector c;
  for (double u : unit) c.Add(CollectiveOp::kAllGather, true, u * wb);
  const size_t units = unit.size();
  if (units > 1 && issuer == Zero3Issuer::kFsdp1) {
    c.Add(CollectiveOp::kAllGather, false, unit[units - 1] * wb);
  }
  for (size_t u = units - 1; u >= 1 && u < units; --u) {
    if (u - 1 > 0) c.Add(CollectiveOp::kAllGather, false, unit[u - 1] * wb);
    c.Add(CollectiveOp::kReduceScatter, false, unit[u] * gb);
  }
  if (units > 0) c.Add(CollectiveOp::kReduceScatter, false, unit[0] * gb);
  return c.out;
}

// DeepSpeed: per pass, the first parameter fetched alone, then whole parameters packed until a
// pack reaches the prefetch bucket (persistent ones skipped); gradients in backward order into
// reduce buckets, a gradient that would overflow flushing the bucket first.
Zero3Schedule DeepSpeed(const std::vector<Zero3Param>& params, double n, double wb, double gb,
                        const DeepSpeedZero3Settings& s) {
  Collector c;
  auto gathers = [&](bool forward) {
    double pack = 0, numel = 0;
    bool first = true;
    auto visit = [&](const Zero3Param& p) {
      if (p.elements <= s.persistence_threshold) return;
      pack += Padded(Zero3Issuer::kDeepSpeed, p, n);
      numel += p.elements;
      if (first || numel >= s.prefetch_bucket_elements) {
        c.Add(CollectiveOp::kAllGather, forward, pack * wb);
        pack = numel = 0;
        first = false;
      }
    };
    if (forward) {
      for (const Zero3Param& p : params) visit(p);
    } else {
      for (auto it = params.rbegin(); it != params.rend(); ++it) visit(*it);
    }
    c.Add(CollectiveOp::kAllGather, forward, pack * wb);
  };
  gathers(true);
  gathers(false);
  double bucket = 0, padded = 0;
  for (auto it = params.rbegin(); it != params.rend(); ++it) {
    if (bucket > 0 && bucket + it->elements > s.reduce_bucket_elements) {
      c.Add(CollectiveOp::kReduceScatter, false, padded * gb);
      bucket = padded = 0;
    }
    bucket += it->elements;
    padded += Padded(Zero3Issuer::kDeepSpeed, *it, n);
  }
  c.Add(CollectiveOp::kReduceScatter, false, padded * gb);
  return c.out;
}

}  // namespace

const char* ToString(Zero3Issuer issuer) {
  switch (issuer) {
    case Zero3Issuer::kDeepSpeed:
      return "DeepSpeed ZeRO-3";
    case Zero3Issuer::kFsdp1:
      return "PyTorch FSDP1";
    case Zero3Issuer::kFsdp2:
      return "PyTorch FSDP2";
  }
  return "";
}

Zero3Schedule Zero3Collectives(Zero3Issuer issuer, const std::vector<Zero3Param>& params,
                               int64_t ranks, double weight_bytes, double grad_bytes,
                               const DeepSpeedZero3Settings& deepspeed) {
  const double n = static_cast<double>(std::max<int64_t>(ranks, 1));
  if (params.empty()) return {};
  if (issuer == Zero3Issuer::kDeepSpeed) {
    return DeepSpeed(params, n, weight_bytes, grad_bytes, deepspeed);
  }
  return PerUnit(issuer, params, n, weight_bytes, grad_bytes);
}

}  // namespace paraplan
