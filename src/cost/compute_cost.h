// Compute time of one kernel: roofline of FLOPs at the precision's peak times a shape-dependent
// efficiency, against bytes at the achieved HBM bandwidth (Williams et al., CACM 2009). A
// calibration profile's measured GEMM table replaces the default efficiency curve.
#pragma once

#include <cstdint>

#include "hardware/cluster.h"
#include "hardware/measured_efficiency.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// Dense tensor-core peak in FLOP/s for a precision (fp8 falls back to bf16 when the GPU has none).
double PeakFlops(const GpuSpec& gpu, Precision precision);

// The smallest min(m, n, k) of the GEMMs the fallback curve was fitted on (our H200 harness's
// cuBLASLt table, calibrate/data/h200-2026-11-29/gemm_fit.csv).
inline constexpr double kGemmCurveMinDim = 512;

// One output-tile shape of the shape-aware GEMM model: a CTA computes tile_m x tile_n of the
// output; `efficiency` is its rate relative to the largest tile (a smaller tile re-uses each
// operand byte fewer times).
struct GemmTile {
  double tile_m, tile_n, efficiency;
};

// The tiles the shape-aware model picks from, the better one per shape, as cuBLASLt's heuristic
// does: 128 x 256 (Hopper's bf16/fp8 warp-specialized kernels' large tile) and 128 x 128 at
// 0.95 for shapes too small or too skinny to fill the SMs with the large one. Fitted to our H200
// cuBLASLt table (gemm_fit.csv, docs/cost-model.md "Constants").
inline constexpr GemmTile kGemmTiles[] = {{128, 256, 1.0}, {128, 128, 0.95}};

// The tops (gemm_max, fp8_gemm_max) the same fit gives the model, kTileGemmTopBf16 and
// kTileGemmTopFp8, are Hopper's measured GEMM fractions: hardware/measured_efficiency.h.

// K-loop prologue and epilogue of one output tile, in bytes of K per operand row: a tile of
// depth k takes as long as k + k0 of steady-state main loop, k0 = kGemmPrologueKBytes / the
// input's bytes per element (192 for bf16, 384 for fp8: the same shared-memory pipeline fill).
// Same fit.
inline constexpr double kGemmPrologueKBytes = 384;

// k0 of `precision` (elements of K).
inline constexpr double GemmPrologueK(Precision precision) {
  return precision == Precision::kFp8 ? kGemmPrologueKBytes : kGemmPrologueKBytes / 2;
}

// Fraction of the SMs' tile capacity `batch` m x n outputs keep busy with `tile`: padding (m·n
// over the padded tiles' area) times wave quantization (tiles over ceil(tiles / sm_count) full
// waves), i.e. batch·m·n / (ceil(batch·tiles / sm_count) · sm_count · tile_m · tile_n), in
// (0, 1]. A batched GEMM (cuBLAS's strided-batched GEMMs: one launch whose grid holds every
// matrix's tiles, the batch index in the grid's z dimension) quantizes its waves over all of
// them, not per matrix.
double GemmTileUtilization(const GemmTile& tile, double m, double n, int64_t sm_count,
                           double batch = 1);

// Default GEMM efficiency (of the precision's dense peak), in (0, top] with top = gemm_max
// (fp8_gemm_max for fp8) from hardware/efficiency.yaml:
//  - sm_count > 0 (the GPU's SM count): top · max over kGemmTiles of efficiency ·
//    GemmTileUtilization · k / (k + GemmPrologueK(precision));
//  - sm_count = 0 (unknown): the min-dimension curve top · x / (x + gemm_half_dim),
//    x = max(min(m, n, k), kGemmCurveMinDim).
// Small or skinny GEMMs cannot fill the tensor cores either way.
double GemmEfficiency(const Efficiency& eff, int64_t sm_count, Precision precision, double m,
                      double n, double k, double batch = 1);

// HBM bytes of an m x n x k GEMM: operands in `precision`'s bytes (2, or 1 for fp8 inputs) and a
// bf16 output.
double GemmBytes(Precision precision, double m, double n, double k);

// Seconds of an m x n x k GEMM (2mnk FLOPs) in `precision`, moving GemmBytes.
double GemmSeconds(const Cluster& cluster, Precision precision, double m, double n, double k);

// Seconds of one batched GEMM launch: `batch` independent m x n x k products (2·batch·mnk FLOPs,
// batch × GemmBytes), its waves quantized over all of them (GemmTileUtilization). The curve and
// a profile's table price each product alone, as GemmSeconds × batch.
double BatchedGemmSeconds(const Cluster& cluster, Precision precision, double batch, double m,
                          double n, double k);

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
