#include <cuda_bf16.h>
#include <cuda_fp8.h>

#include <algorithm>

#include "cuda_check.h"
#include "random_fill.h"

namespace paraplan::calibrate {
namespace {

// A 32-bit integer hash (Wellons' "lowbias32").
__device__ uint32_t Hash(uint32_t x) {
  x ^= x >> 16;
  x *= 0x7feb352dU;
  x ^= x >> 15;
  x *= 0x846ca68bU;
  x ^= x >> 16;
  return x;
}

// Uniform in [-1, 1) with |v| >= 1/64, so no element is zero even after fp8 rounding.
__device__ float Uniform(int64_t i, uint32_t seed) {
  const uint32_t h = Hash(static_cast<uint32_t>(i) ^ Hash(seed ^ static_cast<uint32_t>(i >> 32)));
  const float magnitude = 1.0f / 64.0f + (63.0f / 64.0f) * static_cast<float>(h >> 9) / 8388608.0f;
  return (h & 1U) ? magnitude : -magnitude;
}

template <typename T>
__global__ void FillKernel(T* data, int64_t count, uint32_t seed, float scale) {
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < count;
       i += stride) {
    data[i] = T(scale * Uniform(i, seed));
  }
}

template <typename T>
void Launch(void* data, int64_t count, uint32_t seed, float scale, cudaStream_t stream) {
  const int threads = 256;
  const int64_t wanted = (count + threads - 1) / threads;
  const int blocks = static_cast<int>(std::clamp<int64_t>(wanted, 1, 65535));
  FillKernel<T><<<blocks, threads, 0, stream>>>(static_cast<T*>(data), count, seed, scale);
  CUDA_CHECK(cudaGetLastError());
}

}  // namespace

int64_t DtypeBytes(const std::string& dtype) {
  if (dtype == "bf16") return 2;
  if (dtype == "fp8") return 1;
  if (dtype == "fp32") return 4;
  throw HarnessError("unknown dtype '" + dtype + "' (valid: bf16, fp8, fp32)");
}

void FillRandom(void* data, int64_t count, const std::string& dtype, uint32_t seed, float scale,
                cudaStream_t stream) {
  if (dtype == "bf16") {
    Launch<__nv_bfloat16>(data, count, seed, scale, stream);
  } else if (dtype == "fp8") {
    Launch<__nv_fp8_e4m3>(data, count, seed, scale, stream);
  } else if (dtype == "fp32") {
    Launch<float>(data, count, seed, scale, stream);
  } else {
    throw HarnessError("unknown dtype '" + dtype + "' (valid: bf16, fp8, fp32)");
  }
}

}  // namespace paraplan::calibrate
