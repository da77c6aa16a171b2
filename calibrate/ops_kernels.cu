// Kernels of the `ops` mode (see ops_kernels.h). Written for this harness: one pass over each
// tensor where the op allows it, 16-byte vector loads and stores, fp32 arithmetic.
#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>

#include "cuda_check.h"
#include "ops_kernels.h"

namespace paraplan::calibrate {
namespace {

constexpr int kThreads = 256;
constexpr int kVec = 8;                            // bf16 elements per 16-byte vector
constexpr int kMaxVecs = 4;                        // vectors per thread in a norm row
constexpr int kRowStride = kThreads * kVec;        // 2048: hidden must be a multiple
constexpr int kMaxHidden = kRowStride * kMaxVecs;  // 8192
constexpr int kBwdRowsPerBlock = 32;               // rows per block of the RMSNorm backward

using Bf16 = __nv_bfloat16;

__device__ inline void Load8(const Bf16* p, float* out) {
  const uint4 raw = *reinterpret_cast<const uint4*>(p);
  const __nv_bfloat162* h = reinterpret_cast<const __nv_bfloat162*>(&raw);
#pragma unroll
  for (int k = 0; k < 4; ++k) {
    const float2 f = __bfloat1622float2(h[k]);
    out[2 * k] = f.x;
    out[2 * k + 1] = f.y;
  }
}

__device__ inline void Store8(Bf16* p, const float* in) {
  uint4 raw;
  __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&raw);
#pragma unroll
  for (int k = 0; k < 4; ++k) h[k] = __floats2bfloat162_rn(in[2 * k], in[2 * k + 1]);
  *reinterpret_cast<uint4*>(p) = raw;
}

__device__ inline float WarpSum(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
  return v;
}

__device__ inline float WarpMax(float v) {
#pragma unroll
  for (int offset = 16; offset > 0; offset /= 2) {
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
  }
  return v;
}

// The sum (or max) over the block, returned to every thread. blockDim.x is a multiple of 32.
template <bool kMax>
__device__ float BlockReduce(float v) {
  __shared__ float partial[32];
  __shared__ float total;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  v = kMax ? WarpMax(v) : WarpSum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    const int warps = static_cast<int>(blockDim.x) / 32;
    float t = lane < warps ? partial[lane] : (kMax ? -INFINITY : 0.f);
    t = kMax ? WarpMax(t) : WarpSum(t);
    if (lane == 0) total = t;
  }
  __syncthreads();
  const float result = total;
  __syncthreads();  // the next call may overwrite partial and total
  return result;
}

// Offset of thread `tid`'s v-th vector in a row.
__device__ inline int64_t RowOffset(int v) {
  return (static_cast<int64_t>(v) * kThreads + threadIdx.x) * kVec;
}

__global__ void RmsNormFwdKernel(const Bf16* x, const Bf16* w, Bf16* y, float* rsigma, int hidden) {
  const int64_t base = static_cast<int64_t>(blockIdx.x) * hidden;
  const int vecs = hidden / kRowStride;
  float xv[kMaxVecs][kVec];
  float sum = 0;
#pragma unroll
  for (int v = 0; v < kMaxVecs; ++v) {
    if (v >= vecs) break;
    Load8(x + base + RowOffset(v), xv[v]);
#pragma unroll
    for (int k = 0; k < kVec; ++k) sum += xv[v][k] * xv[v][k];
  }
  const float rs = rsqrtf(BlockReduce<false>(sum) / static_cast<float>(hidden) + kNormEps);
  if (threadIdx.x == 0) rsigma[blockIdx.x] = rs;
#pragma unroll
  for (int v = 0; v < kMaxVecs; ++v) {
    if (v >= vecs) break;
    float wv[kVec], out[kVec];
    Load8(w + RowOffset(v), wv);
#pragma unroll
    for (int k = 0; k < kVec; ++k) out[k] = xv[v][k] * rs * wv[k];
    Store8(y + base + RowOffset(v), out);
  }
}

// Each block takes kBwdRowsPerBlock rows and writes its share of dw to one row of dw_partial.
__global__ void RmsNormBwdKernel(const Bf16* x, const Bf16* w, const Bf16* dy, const float* rsigma,
                                 Bf16* dx, float* dw_partial, int64_t rows, int hidden) {
  const int vecs = hidden / kRowStride;
  float dw[kMaxVecs][kVec] = {};
  const int64_t first = static_cast<int64_t>(blockIdx.x) * kBwdRowsPerBlock;
  const int64_t last = min(rows, first + kBwdRowsPerBlock);
  for (int64_t row = first; row < last; ++row) {
    const int64_t base = row * hidden;
    float xv[kMaxVecs][kVec], gv[kMaxVecs][kVec];
    float dot = 0;
#pragma unroll
    for (int v = 0; v < kMaxVecs; ++v) {
      if (v >= vecs) break;
      float wv[kVec];
      Load8(x + base + RowOffset(v), xv[v]);
      Load8(dy + base + RowOffset(v), gv[v]);
      Load8(w + RowOffset(v), wv);
#pragma unroll
      for (int k = 0; k < kVec; ++k) dot += gv[v][k] * wv[k] * xv[v][k];
    }
    const float rs = rsigma[row];
    const float c = rs * rs * rs * BlockReduce<false>(dot) / static_cast<float>(hidden);
#pragma unroll
    for (int v = 0; v < kMaxVecs; ++v) {
      if (v >= vecs) break;
      float wv[kVec], out[kVec];
      Load8(w + RowOffset(v), wv);
#pragma unroll
      for (int k = 0; k < kVec; ++k) {
        out[k] = rs * wv[k] * gv[v][k] - xv[v][k] * c;
        dw[v][k] += gv[v][k] * xv[v][k] * rs;
      }
      Store8(dx + base + RowOffset(v), out);
    }
  }
  float* out = dw_partial + static_cast<int64_t>(blockIdx.x) * hidden;
#pragma unroll
  for (int v = 0; v < kMaxVecs; ++v) {
    if (v >= vecs) break;
    float4* o = reinterpret_cast<float4*>(out + RowOffset(v));
    o[0] = make_float4(dw[v][0], dw[v][1], dw[v][2], dw[v][3]);
    o[1] = make_float4(dw[v][4], dw[v][5], dw[v][6], dw[v][7]);
  }
}

// dw[i] = Σ_b dw_partial[b, i], one thread per column.
__global__ void SumColumnsKernel(const float* partial, float* dw, int64_t blocks, int hidden) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= hidden) return;
  float sum = 0;
  for (int64_t b = 0; b < blocks; ++b) sum += partial[b * hidden + i];
  dw[i] = sum;
}

__global__ void LayerNormFwdKernel(const Bf16* x, const Bf16* w, const Bf16* b, Bf16* y,
                                   float* mean_out, float* rstd_out, int hidden) {
  const int64_t base = static_cast<int64_t>(blockIdx.x) * hidden;
  const int vecs = hidden / kRowStride;
  float xv[kMaxVecs][kVec];
  float sum = 0;
#pragma unroll
  for (int v = 0; v < kMaxVecs; ++v) {
    if (v >= vecs) break;
    Load8(x + base + RowOffset(v), xv[v]);
#pragma unroll
    for (int k = 0; k < kVec; ++k) sum += xv[v][k];
  }
  const float mean = BlockReduce<false>(sum) / static_cast<float>(hidden);
  float var = 0;
#pragma unroll
  for (int v = 0; v < kMaxVecs; ++v) {
    if (v >= vecs) break;
#pragma unroll
    for (int k = 0; k < kVec; ++k) var += (xv[v][k] - mean) * (xv[v][k] - mean);
  }
  const float rstd = rsqrtf(BlockReduce<false>(var) / static_cast<float>(hidden) + kNormEps);
  if (threadIdx.x == 0) {
    mean_out[blockIdx.x] = mean;
    rstd_out[blockIdx.x] = rstd;
  }
#pragma unroll
  for (int v = 0; v < kMaxVecs; ++v) {
    if (v >= vecs) break;
    float wv[kVec], bv[kVec], out[kVec];
    Load8(w + RowOffset(v), wv);
    Load8(b + RowOffset(v), bv);
#pragma unroll
    for (int k = 0; k < kVec; ++k) out[k] = (xv[v][k] - mean) * rstd * wv[k] + bv[k];
    Store8(y + base + RowOffset(v), out);
  }
}

// One thread per 8 pairs (i, i + D/2) of one head of one token.
__global__ void RopeFwdKernel(const Bf16* x, const float* cos_table, const float* sin_table,
                              Bf16* y, int64_t tokens, int heads, int head_dim, int seq) {
  const int half = head_dim / 2, chunks = half / kVec;
  const int64_t items = tokens * heads * chunks;
  for (int64_t item = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; item < items;
       item += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const int64_t token_head = item / chunks;
    const int i0 = static_cast<int>(item % chunks) * kVec;
    const int64_t pos = (token_head / heads) % seq;
    const int64_t base = token_head * head_dim;
    float a[kVec], b[kVec], lo[kVec], hi[kVec];
    Load8(x + base + i0, a);
    Load8(x + base + half + i0, b);
    const float4* ct = reinterpret_cast<const float4*>(cos_table + pos * half + i0);
    const float4* st = reinterpret_cast<const float4*>(sin_table + pos * half + i0);
    const float4 c0 = ct[0], c1 = ct[1], s0 = st[0], s1 = st[1];
    const float c[kVec] = {c0.x, c0.y, c0.z, c0.w, c1.x, c1.y, c1.z, c1.w};
    const float s[kVec] = {s0.x, s0.y, s0.z, s0.w, s1.x, s1.y, s1.z, s1.w};
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      lo[k] = a[k] * c[k] - b[k] * s[k];
      hi[k] = b[k] * c[k] + a[k] * s[k];
    }
    Store8(y + base + i0, lo);
    Store8(y + base + half + i0, hi);
  }
}

__device__ inline float Sigmoid(float x) {
  return 1.f / (1.f + __expf(-x));
}

__global__ void SwigluFwdKernel(const Bf16* gate, const Bf16* up, Bf16* y, int64_t vectors) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float g[kVec], u[kVec], out[kVec];
    Load8(gate + i * kVec, g);
    Load8(up + i * kVec, u);
#pragma unroll
    for (int k = 0; k < kVec; ++k) out[k] = g[k] * Sigmoid(g[k]) * u[k];
    Store8(y + i * kVec, out);
  }
}

__global__ void SwigluBwdKernel(const Bf16* gate, const Bf16* up, const Bf16* dy, Bf16* dgate,
                                Bf16* dup, int64_t vectors) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float g[kVec], u[kVec], d[kVec], dg[kVec], du[kVec];
    Load8(gate + i * kVec, g);
    Load8(up + i * kVec, u);
    Load8(dy + i * kVec, d);
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      const float s = Sigmoid(g[k]);
      dg[k] = d[k] * u[k] * s * (1.f + g[k] * (1.f - s));
      du[k] = d[k] * g[k] * s;
    }
    Store8(dgate + i * kVec, dg);
    Store8(dup + i * kVec, du);
  }
}

__global__ void GeluFwdKernel(const Bf16* x, Bf16* y, int64_t vectors) {
  constexpr float kSqrt2OverPi = 0.7978845608028654f;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float v[kVec], out[kVec];
    Load8(x + i * kVec, v);
#pragma unroll
    for (int k = 0; k < kVec; ++k) {
      out[k] = 0.5f * v[k] * (1.f + tanhf(kSqrt2OverPi * (v[k] + 0.044715f * v[k] * v[k] * v[k])));
    }
    Store8(y + i * kVec, out);
  }
}

__global__ void ResidualAddKernel(const Bf16* a, const Bf16* b, Bf16* y, int64_t vectors) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    float av[kVec], bv[kVec], out[kVec];
    Load8(a + i * kVec, av);
    Load8(b + i * kVec, bv);
#pragma unroll
    for (int k = 0; k < kVec; ++k) out[k] = av[k] + bv[k];
    Store8(y + i * kVec, out);
  }
}

// One block per row: max, then Σ exp(l − max) (two reads of the row), then the target's logit.
__global__ void CrossEntropyFwdKernel(const float* logits, const int32_t* targets, float* loss,
                                      float* lse, int64_t vocab) {
  const float4* row = reinterpret_cast<const float4*>(logits + blockIdx.x * vocab);
  const int64_t vectors = vocab / 4;
  float max = -INFINITY;
  for (int64_t i = threadIdx.x; i < vectors; i += blockDim.x) {
    const float4 v = row[i];
    max = fmaxf(fmaxf(max, fmaxf(v.x, v.y)), fmaxf(v.z, v.w));
  }
  max = BlockReduce<true>(max);
  float sum = 0;
  for (int64_t i = threadIdx.x; i < vectors; i += blockDim.x) {
    const float4 v = row[i];
    sum += __expf(v.x - max) + __expf(v.y - max) + __expf(v.z - max) + __expf(v.w - max);
  }
  sum = BlockReduce<false>(sum);
  if (threadIdx.x == 0) {
    const float l = max + logf(sum);
    lse[blockIdx.x] = l;
    loss[blockIdx.x] = l - logits[blockIdx.x * vocab + targets[blockIdx.x]];
  }
}

// grid (vocab / 4 / blockDim, rows): grad = (softmax − onehot) · scale.
__global__ void CrossEntropyBwdKernel(const float* logits, const int32_t* targets, const float* lse,
                                      float* grad, int64_t vocab, float scale) {
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= vocab / 4) return;
  const int64_t at = blockIdx.y * vocab + 4 * i;
  const float l = lse[blockIdx.y];
  const int64_t t = targets[blockIdx.y];
  const float4 v = reinterpret_cast<const float4*>(logits + at)[0];
  float4 g;
  g.x = (__expf(v.x - l) - (4 * i == t ? 1.f : 0.f)) * scale;
  g.y = (__expf(v.y - l) - (4 * i + 1 == t ? 1.f : 0.f)) * scale;
  g.z = (__expf(v.z - l) - (4 * i + 2 == t ? 1.f : 0.f)) * scale;
  g.w = (__expf(v.w - l) - (4 * i + 3 == t ? 1.f : 0.f)) * scale;
  reinterpret_cast<float4*>(grad + at)[0] = g;
}

struct AdamArgs {
  float lr, beta1, beta2, eps, weight_decay, bias1, bias2;
};

__device__ inline float AdamOne(const AdamArgs& a, float g, float& p, float& m, float& v) {
  m = a.beta1 * m + (1.f - a.beta1) * g;
  v = a.beta2 * v + (1.f - a.beta2) * g * g;
  const float update = (m / a.bias1) / (sqrtf(v / a.bias2) + a.eps);
  p = p - a.lr * (update + a.weight_decay * p);
  return p;
}

__global__ void AdamStepKernel(AdamArgs a, const float4* g, float4* p, float4* m, float4* v,
                               __nv_bfloat162* p_bf16, int64_t vectors) {
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float4 gi = g[i];
    float4 pi = p[i], mi = m[i], vi = v[i];
    AdamOne(a, gi.x, pi.x, mi.x, vi.x);
    AdamOne(a, gi.y, pi.y, mi.y, vi.y);
    AdamOne(a, gi.z, pi.z, mi.z, vi.z);
    AdamOne(a, gi.w, pi.w, mi.w, vi.w);
    p[i] = pi;
    m[i] = mi;
    v[i] = vi;
    uint2 packed;
    __nv_bfloat162* h = reinterpret_cast<__nv_bfloat162*>(&packed);
    h[0] = __floats2bfloat162_rn(pi.x, pi.y);
    h[1] = __floats2bfloat162_rn(pi.z, pi.w);
    reinterpret_cast<uint2*>(p_bf16)[i] = packed;
  }
}

__global__ void SumSquaresKernel(const float4* g, float* partial, int64_t vectors) {
  float sum = 0;
  for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < vectors;
       i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
    const float4 v = g[i];
    sum += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
  }
  sum = BlockReduce<false>(sum);
  if (threadIdx.x == 0) partial[blockIdx.x] = sum;
}

__global__ void SumPartialsKernel(const float* partial, float* out, int count) {
  float sum = 0;
  for (int i = threadIdx.x; i < count; i += blockDim.x) sum += partial[i];
  sum = BlockReduce<false>(sum);
  if (threadIdx.x == 0) *out = sum;
}

// Blocks for a grid-stride loop over `items`: enough to fill the GPU, at most one per 256 items.
unsigned GridFor(int64_t items) {
  constexpr int64_t kMaxBlocks = int64_t{1} << 16;
  const int64_t blocks = (items + kThreads - 1) / kThreads;
  return static_cast<unsigned>(std::max<int64_t>(1, std::min(blocks, kMaxBlocks)));
}

const Bf16* In(const void* p) {
  return static_cast<const Bf16*>(p);
}
Bf16* Out(void* p) {
  return static_cast<Bf16*>(p);
}

void CheckLaunch() {
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace

std::string OpsShapeError(int64_t hidden, int64_t head_dim, int64_t vocab, int64_t params) {
  if (hidden < kRowStride || hidden % kRowStride != 0 || hidden > kMaxHidden) {
    return "hidden " + std::to_string(hidden) + ": the norm kernels need a multiple of " +
           std::to_string(kRowStride) + " up to " + std::to_string(kMaxHidden);
  }
  if (head_dim < 2 * kVec || head_dim % (2 * kVec) != 0) {
    return "head_dim " + std::to_string(head_dim) + ": RoPE needs a multiple of 16";
  }
  if (vocab < 4 || vocab % 4 != 0) {
    return "vocab " + std::to_string(vocab) + ": the loss kernels need a multiple of 4";
  }
  if (params < kVec || params % kVec != 0) {
    return "parameters " + std::to_string(params) + ": need a multiple of 8";
  }
  return "";
}

void LaunchRmsNormFwd(const void* x, const void* w, void* y, float* rsigma, int64_t rows,
                      int64_t hidden, cudaStream_t stream) {
  RmsNormFwdKernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(
      In(x), In(w), Out(y), rsigma, static_cast<int>(hidden));
  CheckLaunch();
}

int64_t RmsNormBwdPartialRows(int64_t rows) {
  return (rows + kBwdRowsPerBlock - 1) / kBwdRowsPerBlock;
}

void LaunchRmsNormBwd(const void* x, const void* w, const void* dy, const float* rsigma, void* dx,
                      float* dw_partial, float* dw, int64_t rows, int64_t hidden,
                      cudaStream_t stream) {
  const int64_t blocks = RmsNormBwdPartialRows(rows);
  RmsNormBwdKernel<<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(
      In(x), In(w), In(dy), rsigma, Out(dx), dw_partial, rows, static_cast<int>(hidden));
  CheckLaunch();
  SumColumnsKernel<<<static_cast<unsigned>((hidden + kThreads - 1) / kThreads), kThreads, 0,
                     stream>>>(dw_partial, dw, blocks, static_cast<int>(hidden));
  CheckLaunch();
}

void LaunchLayerNormFwd(const void* x, const void* w, const void* b, void* y, float* mean,
                        float* rstd, int64_t rows, int64_t hidden, cudaStream_t stream) {
  LayerNormFwdKernel<<<static_cast<unsigned>(rows), kThreads, 0, stream>>>(
      In(x), In(w), In(b), Out(y), mean, rstd, static_cast<int>(hidden));
  CheckLaunch();
}

void LaunchRopeFwd(const void* x, const float* cos_table, const float* sin_table, void* y,
                   int64_t tokens, int64_t heads, int64_t head_dim, int64_t seq,
                   cudaStream_t stream) {
  const int64_t items = tokens * heads * (head_dim / 2 / kVec);
  RopeFwdKernel<<<GridFor(items), kThreads, 0, stream>>>(
      In(x), cos_table, sin_table, Out(y), tokens, static_cast<int>(heads),
      static_cast<int>(head_dim), static_cast<int>(seq));
  CheckLaunch();
}

void LaunchSwigluFwd(const void* gate, const void* up, void* y, int64_t n, cudaStream_t stream) {
  SwigluFwdKernel<<<GridFor(n / kVec), kThreads, 0, stream>>>(In(gate), In(up), Out(y), n / kVec);
  CheckLaunch();
}

void LaunchSwigluBwd(const void* gate, const void* up, const void* dy, void* dgate, void* dup,
                     int64_t n, cudaStream_t stream) {
  SwigluBwdKernel<<<GridFor(n / kVec), kThreads, 0, stream>>>(In(gate), In(up), In(dy), Out(dgate),
                                                              Out(dup), n / kVec);
  CheckLaunch();
}

void LaunchGeluFwd(const void* x, void* y, int64_t n, cudaStream_t stream) {
  GeluFwdKernel<<<GridFor(n / kVec), kThreads, 0, stream>>>(In(x), Out(y), n / kVec);
  CheckLaunch();
}

void LaunchResidualAdd(const void* a, const void* b, void* y, int64_t n, cudaStream_t stream) {
  ResidualAddKernel<<<GridFor(n / kVec), kThreads, 0, stream>>>(In(a), In(b), Out(y), n / kVec);
  CheckLaunch();
}

void LaunchCrossEntropyFwd(const float* logits, const int32_t* targets, float* loss, float* lse,
                           int64_t rows, int64_t vocab, cudaStream_t stream) {
  CrossEntropyFwdKernel<<<static_cast<unsigned>(rows), 4 * kThreads, 0, stream>>>(logits, targets,
                                                                                  loss, lse, vocab);
  CheckLaunch();
}

void LaunchCrossEntropyBwd(const float* logits, const int32_t* targets, const float* lse,
                           float* grad, int64_t rows, int64_t vocab, float scale,
                           cudaStream_t stream) {
  const dim3 grid(static_cast<unsigned>((vocab / 4 + kThreads - 1) / kThreads),
                  static_cast<unsigned>(rows));
  CrossEntropyBwdKernel<<<grid, kThreads, 0, stream>>>(logits, targets, lse, grad, vocab, scale);
  CheckLaunch();
}

void LaunchAdamStep(const AdamConfig& c, const float* g, float* p, float* m, float* v, void* p_bf16,
                    int64_t n, cudaStream_t stream) {
  const AdamArgs args{c.lr,
                      c.beta1,
                      c.beta2,
                      c.eps,
                      c.weight_decay,
                      static_cast<float>(1.0 - std::pow(double{c.beta1}, c.step)),
                      static_cast<float>(1.0 - std::pow(double{c.beta2}, c.step))};
  AdamStepKernel<<<GridFor(n / 4), kThreads, 0, stream>>>(
      args, reinterpret_cast<const float4*>(g), reinterpret_cast<float4*>(p),
      reinterpret_cast<float4*>(m), reinterpret_cast<float4*>(v),
      static_cast<__nv_bfloat162*>(p_bf16), n / 4);
  CheckLaunch();
}

void LaunchGradNorm(const float* g, float* partial, float* sum_sq, int64_t n, cudaStream_t stream) {
  SumSquaresKernel<<<kGradNormBlocks, kThreads, 0, stream>>>(reinterpret_cast<const float4*>(g),
                                                             partial, n / 4);
  CheckLaunch();
  SumPartialsKernel<<<1, 4 * kThreads, 0, stream>>>(partial, sum_sq, kGradNormBlocks);
  CheckLaunch();
}

}  // namespace paraplan::calibrate
