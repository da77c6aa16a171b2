#include "cost/compute_cost.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"
#include "hardware/profile_lookup.h"

namespace paraplan {

double PeakFlops(const GpuSpec& gpu, Precision precision) {
  switch (precision) {
    case Precision::kFp8:
      return TflopsToFlops(gpu.peak_tflops.fp8 > 0 ? gpu.peak_tflops.fp8 : gpu.peak_tflops.bf16);
    case Precision::kFp16:
      return TflopsToFlops(gpu.peak_tflops.fp16 > 0 ? gpu.peak_tflops.fp16 : gpu.peak_tflops.bf16);
    case Precision::kBf16:
      break;
  }
  return TflopsToFlops(gpu.peak_tflops.bf16);
}

double GemmTileUtilization(const GemmTile& tile, double m, double n, int64_t sm_count,
                           double batch) {
  const double b = std::max(std::round(batch), 1.0);
  const double tiles_m = std::ceil(m / tile.tile_m), tiles_n = std::ceil(n / tile.tile_n);
  const double sms = static_cast<double>(sm_count);
  const double waves = std::ceil(b * tiles_m * tiles_n / sms);
  return b * m * n / (waves * sms * tile.tile_m * tile.tile_n);
}

double GemmEfficiency(const Efficiency& eff, int64_t sm_count, Precision precision, double m,
                      double n, double k, double batch) {
  const double top = precision == Precision::kFp8 ? eff.fp8_gemm_max : eff.gemm_max;
  if (sm_count > 0 && m > 0 && n > 0 && k > 0) {
    double best = 0;
    for (const GemmTile& tile : kGemmTiles) {
      best = std::max(best, tile.efficiency * GemmTileUtilization(tile, m, n, sm_count, batch));
    }
    return top * best * k / (k + GemmPrologueK(precision));
  }
  // The curve is not extrapolated below the smallest dimension it was fitted on: a thinner GEMM
  // (attention's batched QKᵀ with k = head_dim, a router's n = experts) is held to the curve's
  // value there and, being low in arithmetic intensity, to the memory bound in GemmSeconds.
  const double x = std::max(std::min({m, n, k}), kGemmCurveMinDim);
  return top * x / (x + eff.gemm_half_dim);
}

double HbmBytesPerSecond(const Cluster& cluster) {
  if (cluster.profile && cluster.profile->memory_bandwidth_GBps > 0) {
    return GBpsToBytesPerSecond(cluster.profile->memory_bandwidth_GBps);
  }
  return GBpsToBytesPerSecond(cluster.gpu.memory_bandwidth_GBps) *
         cluster.efficiency.memory_bandwidth;
}

double GemmBytes(Precision precision, double m, double n, double k) {
  const double in_bytes = precision == Precision::kFp8 ? 1.0 : 2.0;
  return (m * k + k * n) * in_bytes + m * n * 2.0;
}

double GemmSeconds(const Cluster& cluster, Precision precision, double m, double n, double k) {
  return BatchedGemmSeconds(cluster, precision, 1, m, n, k);
}

double BatchedGemmSeconds(const Cluster& cluster, Precision precision, double batch, double m,
                          double n, double k) {
  if (batch <= 0 || m <= 0 || n <= 0 || k <= 0) return 0.0;
  const double flops = 2.0 * batch * m * n * k;
  double achieved = 0;
  if (cluster.profile && !cluster.profile->gemm.empty()) {
    bool found = false;
    const double tflops =
        ProfileGemmTflops(*cluster.profile, ToString(precision), static_cast<int64_t>(m),
                          static_cast<int64_t>(n), static_cast<int64_t>(k), &found);
    if (found && tflops > 0) achieved = TflopsToFlops(tflops);
  }
  if (achieved <= 0) {
    achieved = PeakFlops(cluster.gpu, precision) *
               GemmEfficiency(cluster.efficiency,
                              cluster.gpu.gemm_model == GemmModel::kTile ? cluster.gpu.sm_count : 0,
                              precision, m, n, k, batch);
  }
  return std::max(flops / achieved,
                  batch * GemmBytes(precision, m, n, k) / HbmBytesPerSecond(cluster));
}

double AttentionSeconds(const Cluster& cluster, double flops, bool backward,
                        const AttentionShape& shape, bool fa2) {
  if (flops <= 0) return 0.0;
  const Efficiency& e = cluster.efficiency;
  const double s = std::max(shape.seq, 1.0);
  const double length = e.attention_half_seq > 0 ? s / (s + e.attention_half_seq) : 1.0;
  const double fa2_frac = backward ? e.fa2_attention_bwd : e.fa2_attention_fwd;
  if (fa2 && fa2_frac > 0) {
    return flops / (PeakFlops(cluster.gpu, Precision::kBf16) * fa2_frac * length);
  }
  if (cluster.profile && !cluster.profile->attention.empty()) {
    bool found = false;
    const double tflops = ProfileAttentionTflops(
        *cluster.profile, static_cast<int64_t>(std::max(shape.seq, 1.0)),
        static_cast<int64_t>(std::max(shape.heads, 1.0)),
        static_cast<int64_t>(std::max(shape.head_dim, 1.0)), backward, &found);
    if (found && tflops > 0) return flops / TflopsToFlops(tflops);
  }
  const double frac = backward ? e.attention_bwd : e.attention_fwd;
  return flops / (PeakFlops(cluster.gpu, Precision::kBf16) * frac * length);
}

double MemoryBoundSeconds(const Cluster& cluster, double bytes) {
  return bytes <= 0 ? 0.0 : bytes / HbmBytesPerSecond(cluster);
}

}  // namespace paraplan
