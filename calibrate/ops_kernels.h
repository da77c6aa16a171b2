// The `ops` mode's CUDA kernels (ops_kernels.cu), written for this harness: the element-wise and
// reduction ops of a transformer training step as fused single-pass kernels, each moving the HBM
// bytes listed in docs/calibration.md ("Element-wise ops"). bf16 tensors are passed as void*
// (2-byte elements), fp32 ones as float*. Shapes must satisfy OpsShapeError (below); every
// launcher checks the launch and throws HarnessError on a CUDA error.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <string>

#include "op_reference.h"

namespace paraplan::calibrate {

// Limits of the kernels: norms hold a row in registers (hidden a multiple of 2048, at most 8192),
// bf16 element-wise ops and RoPE use 16-byte vectors (8 elements), fp32 ones 4. Empty when the
// sizes fit, else what is wrong.
std::string OpsShapeError(int64_t hidden, int64_t head_dim, int64_t vocab, int64_t params);

void LaunchRmsNormFwd(const void* x, const void* w, void* y, float* rsigma, int64_t rows,
                      int64_t hidden, cudaStream_t stream);
// dw_partial: RmsNormBwdPartialRows(rows) × hidden floats of scratch; dw: hidden floats.
void LaunchRmsNormBwd(const void* x, const void* w, const void* dy, const float* rsigma, void* dx,
                      float* dw_partial, float* dw, int64_t rows, int64_t hidden,
                      cudaStream_t stream);
int64_t RmsNormBwdPartialRows(int64_t rows);
void LaunchLayerNormFwd(const void* x, const void* w, const void* b, void* y, float* mean,
                        float* rstd, int64_t rows, int64_t hidden, cudaStream_t stream);
// x, y: [tokens, heads, head_dim] bf16; cos/sin: [seq, head_dim / 2] fp32 (RopeTable).
void LaunchRopeFwd(const void* x, const float* cos_table, const float* sin_table, void* y,
                   int64_t tokens, int64_t heads, int64_t head_dim, int64_t seq,
                   cudaStream_t stream);
void LaunchSwigluFwd(const void* gate, const void* up, void* y, int64_t n, cudaStream_t stream);
void LaunchSwigluBwd(const void* gate, const void* up, const void* dy, void* dgate, void* dup,
                     int64_t n, cudaStream_t stream);
void LaunchGeluFwd(const void* x, void* y, int64_t n, cudaStream_t stream);
void LaunchResidualAdd(const void* a, const void* b, void* y, int64_t n, cudaStream_t stream);
void LaunchCrossEntropyFwd(const float* logits, const int32_t* targets, float* loss, float* lse,
                           int64_t rows, int64_t vocab, cudaStream_t stream);
void LaunchCrossEntropyBwd(const float* logits, const int32_t* targets, const float* lse,
                           float* grad, int64_t rows, int64_t vocab, float scale,
                           cudaStream_t stream);
// p_bf16: n bf16 values (the model's copy of the weights).
void LaunchAdamStep(const AdamConfig& config, const float* g, float* p, float* m, float* v,
                    void* p_bf16, int64_t n, cudaStream_t stream);
// partial: kGradNormBlocks floats of scratch; sum_sq: one float, Σ g².
inline constexpr int kGradNormBlocks = 1024;
void LaunchGradNorm(const float* g, float* partial, float* sum_sq, int64_t n, cudaStream_t stream);

}  // namespace paraplan::calibrate
