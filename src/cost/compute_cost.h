// Compute time of one kernel: roofline of FLOPs at the precision's peak times a shape-dependent
// efficiency, against bytes at the achieved HBM bandwidth (Williams et al., CACM 2009). A
// calibration profile's measured GEMM table replaces the default efficiency curve.
#pragma once

#include <cstdint>

#include "hardware/cluster.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// Dense tensor-core peak in FLOP/s for a precision (fp8 falls back to bf16 when the GPU has none).
double PeakFlops(const GpuSpec& gpu, Precision precision);

// The smallest min(m, n, k) of the GEMMs the default curve was fitted on (our H200 harness's
// cuBLASLt table, calibrate/data/h200-2026-11-29/gemm_fit.csv).
inline constexpr double kGemmCurveMinDim = 512;

// Default GEMM efficiency: eff_max * x / (x + half_dim), x = max(min(m, n, k), kGemmCurveMinDim) —
// small or skinny GEMMs cannot fill the tensor cores (the curve's two parameters come from
// hardware/efficiency.yaml).
double GemmEfficiency(const Efficiency& eff, Precision precision, double m, double n, double k);

// HBM bytes of an m x n x k GEMM: operands in `precision`'s bytes (2, or 1 for fp8 inputs) and a
// bf16 output.
double GemmBytes(Precision precision, double m, double n, double k);

// Seconds of an m x n x k GEMM (2mnk FLOPs) in `precision`, moving GemmBytes.
double GemmSeconds(const Cluster& cluster, Precision precision, double m, double n, double k);

// The shape one attention kernel sees on one GPU: query/key block length (the sequence over cp),
// heads on this rank, head dimension. A calibration profile's attention table is looked up by it.
struct AttentionShape {
  double seq = 0, heads = 0, head_dim = 0;
};

// Seconds of FlashAttention-style core attention with `flops` (already counting causality and
// the sliding window). The achieved rate is the profile's measured one at `shape` when the cluster
// has a profile with an attention table, else peak bf16 × attention_fwd (or attention_bwd). Always
// bf16 (fp8 speeds up GEMMs only).
// `fa2`: PyTorch SDPA's FlashAttention-2 kernel (fusion eager / compile) at the family's
// fa2_attention_fwd / _bwd where set (a profile's table measures the fused kernel, not FA2).
double AttentionSeconds(const Cluster& cluster, double flops, bool backward,
                        const AttentionShape& shape, bool fa2 = false);

// Seconds of a memory-bound kernel moving `bytes` to and from HBM.
double MemoryBoundSeconds(const Cluster& cluster, double bytes);

// Achieved HBM bandwidth in bytes/s (profile's measurement, else datasheet x efficiency).
double HbmBytesPerSecond(const Cluster& cluster);

}  // namespace paraplan
