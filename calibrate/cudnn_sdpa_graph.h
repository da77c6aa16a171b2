// cuDNN scaled-dot-product attention (causal, bf16) as backend operation graphs in the pattern
// that cuDNN's fused flash-attention engines accept (the one the cudnn-frontend SDPA nodes emit):
//
// forward:  S = Q·Kᵀ (fp32) → ·scale → causal mask (GEN_INDEX row/col, CMP_GE, BINARY_SELECT with
//           the lowest float) → max, sub, exp, sum → Stats = max + log(sum) (the log-sum-exp,
//           an output), P = exp/sum (bf16) → O = P·V
// backward: D = rowsum(dO∘O)·1; P = exp(mask(scale·Q·Kᵀ) − Stats); dV = Pᵀ·dO;
//           dS = scale·P∘(dO·Vᵀ·1 − D); dK = dSᵀ·Q; dQ = dS·K into an fp32 accumulator
//           (F16x16-reordered, zeroed before each run) then identity → dQ
//
// Layouts: Q, K, V, O, dO, dQ, dK, dV are [batch, heads, seq, head_dim] packed bf16; Stats is
// [batch, heads, seq, 1] fp32.
#pragma once

#include <cstdint>
#include <memory>

#include "cudnn_graph.h"

namespace paraplan::calibrate {

struct SdpaShape {
  int64_t batch = 1, heads = 1, seq = 1, head_dim = 128;
};

// Tensor uids in the variant packs. kScale, kLowest and kOne are by-value host floats.
enum SdpaUid : int64_t {
  kSdpaQ = 1,
  kSdpaK,
  kSdpaV,
  kSdpaO,
  kSdpaStats,
  kSdpaScale,
  kSdpaLowest,
  kSdpaOne,
  kSdpaDO,
  kSdpaDQ,
  kSdpaDK,
  kSdpaDV,
  kSdpaDQAccum,
};

// Built graphs (Build() done); they throw HarnessError when no engine supports them.
std::unique_ptr<CudnnGraph> BuildSdpaForward(cudnnHandle_t handle, const SdpaShape& shape);
std::unique_ptr<CudnnGraph> BuildSdpaBackward(cudnnHandle_t handle, const SdpaShape& shape);

}  // namespace paraplan::calibrate
