// attention mode, --backend naive: a simple tiled causal attention forward kernel written here
// (online softmax, one query row per thread), recorded honestly as op=naive_fwd_causal; `paraplan
// calibrate fit` reports such rows and leaves them out of the profile (see docs/calibration.md).
// The default backend, when the harness is built with cuDNN, is mode_attention_cudnn.cpp.
#include <cuda_bf16.h>

#include <cstdio>

#include "cuda_check.h"
#include "modes.h"
#include "random_fill.h"
#include "timing.h"

namespace paraplan::calibrate {
namespace {

constexpr int kRows = 64;  // query rows per block, one per thread
constexpr int kTile = 32;  // keys per shared-memory tile

// Q, K, V, O: [batch·heads, seq, D] bf16. Causal: query i sees keys 0..i.
template <int D>
__global__ void NaiveCausalAttention(const __nv_bfloat16* q, const __nv_bfloat16* k,
                                     const __nv_bfloat16* v, __nv_bfloat16* o, int seq,
                                     float scale) {
  __shared__ float k_tile[kTile][D];
  __shared__ float v_tile[kTile][D];
  const int64_t base = static_cast<int64_t>(blockIdx.y) * seq * D;
  const int row = blockIdx.x * kRows + threadIdx.x;
  float q_row[D], acc[D];
  for (int d = 0; d < D; ++d) {
    q_row[d] = row < seq ? __bfloat162float(q[base + static_cast<int64_t>(row) * D + d]) : 0.f;
    acc[d] = 0.f;
  }
  float running_max = -1e30f, denom = 0.f;
  const int kv_end = min(seq, (blockIdx.x + 1) * kRows);
  for (int tile = 0; tile < kv_end; tile += kTile) {
    __syncthreads();
    for (int i = threadIdx.x; i < kTile * D; i += blockDim.x) {
      const int key = tile + i / D;
      const int64_t at = base + static_cast<int64_t>(key) * D + i % D;
      k_tile[i / D][i % D] = key < seq ? __bfloat162float(k[at]) : 0.f;
      v_tile[i / D][i % D] = key < seq ? __bfloat162float(v[at]) : 0.f;
    }
    __syncthreads();
    if (row >= seq) continue;
    for (int j = 0; j < kTile && tile + j <= row; ++j) {
      float s = 0.f;
      for (int d = 0; d < D; ++d) s += q_row[d] * k_tile[j][d];
      s *= scale;
      const float new_max = fmaxf(running_max, s);
      const float correction = __expf(running_max - new_max);
      const float p = __expf(s - new_max);
      denom = denom * correction + p;
      for (int d = 0; d < D; ++d) acc[d] = acc[d] * correction + p * v_tile[j][d];
      running_max = new_max;
    }
  }
  if (row < seq) {
    for (int d = 0; d < D; ++d) {
      o[base + static_cast<int64_t>(row) * D + d] = __float2bfloat16(acc[d] / denom);
    }
  }
}

template <int D>
void Launch(const void* q, const void* k, const void* v, void* o, int64_t seq, int64_t bh,
            cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((seq + kRows - 1) / kRows), static_cast<unsigned>(bh));
  NaiveCausalAttention<D><<<grid, kRows, 0, stream>>>(
      static_cast<const __nv_bfloat16*>(q), static_cast<const __nv_bfloat16*>(k),
      static_cast<const __nv_bfloat16*>(v), static_cast<__nv_bfloat16*>(o), static_cast<int>(seq),
      1.0f / sqrtf(static_cast<float>(D)));
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace

void RunAttentionMode(const HarnessOptions& options, CsvWriter& writer) {
  const int64_t d = options.attn_head_dim;
  if (d != 64 && d != 128) {
    throw HarnessError("attention: --head-dim must be 64 or 128 for the naive kernel");
  }
  CUDA_CHECK(cudaSetDevice(0));
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  const int64_t bh = options.attn_batch * options.attn_heads;
  uint32_t seed = 101;
  for (int64_t seq : options.seq_list) {
    const RowKey key{"attention", "naive_fwd_causal", "bf16", seq, options.attn_heads, d, 0, 1, ""};
    if (writer.Has(key)) continue;
    const int64_t count = bh * seq * d;
    void* buffers[4] = {};
    for (void*& b : buffers) CUDA_CHECK(cudaMalloc(&b, static_cast<size_t>(count) * 2));
    for (int i = 0; i < 3; ++i) FillRandom(buffers[i], count, "bf16", seed++, 1.0f, stream);
    const double t = MedianTimeUs(stream, options.warmup, options.iters, [&] {
      if (d == 64) {
        Launch<64>(buffers[0], buffers[1], buffers[2], buffers[3], seq, bh, stream);
      } else {
        Launch<128>(buffers[0], buffers[1], buffers[2], buffers[3], seq, bh, stream);
      }
    });
    for (void* b : buffers) CUDA_CHECK(cudaFree(b));
    const double per_sequence_us = t / static_cast<double>(options.attn_batch);
    writer.Add(key, per_sequence_us);
    const double flops = 2.0 * static_cast<double>(seq) * static_cast<double>(seq) *
                         static_cast<double>(options.attn_heads) * static_cast<double>(d);
    std::fprintf(stderr, "attention naive fwd causal seq %ld: %.1f us/sequence, %.1f TFLOP/s\n",
                 static_cast<long>(seq), per_sequence_us, flops / per_sequence_us * 1e-6);
  }
  CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace paraplan::calibrate
