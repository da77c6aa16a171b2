// memory mode: achieved HBM bandwidth of a device-to-device copy and of an RMSNorm-like kernel
// (read x, write y; bytes = read + written) over a size sweep.
#include <cuda_bf16.h>

#include <cstdio>

#include "cuda_check.h"
#include "modes.h"
#include "random_fill.h"
#include "timing.h"

namespace paraplan::calibrate {
namespace {

constexpr int kHidden = 8192;  // row width of the norm, as a large model's hidden size
constexpr int kNormThreads = 256;

// y = x / rms(x) · w, one block per row (Zhang & Sennrich 2019, RMSNorm).
__global__ void RmsNormKernel(const __nv_bfloat16* x, const __nv_bfloat16* w, __nv_bfloat16* y,
                              int hidden) {
  const int64_t row = blockIdx.x;
  const __nv_bfloat16* xr = x + row * hidden;
  float sum = 0;
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    const float v = __bfloat162float(xr[i]);
    sum += v * v;
  }
  __shared__ float partial[kNormThreads];
  partial[threadIdx.x] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
    __syncthreads();
  }
  const float inv_rms = rsqrtf(partial[0] / static_cast<float>(hidden) + 1e-6f);
  for (int i = threadIdx.x; i < hidden; i += blockDim.x) {
    y[row * hidden + i] =
        __float2bfloat16(__bfloat162float(xr[i]) * inv_rms * __bfloat162float(w[i]));
  }
}

void Report(const char* op, int64_t bytes, double time_us) {
  std::fprintf(stderr, "memory %s %ld bytes: %.1f us, %.1f GB/s\n", op, static_cast<long>(bytes),
               time_us, static_cast<double>(bytes) / time_us * 1e-3);
}

}  // namespace

void RunMemoryMode(const HarnessOptions& options, CsvWriter& writer) {
  CUDA_CHECK(cudaSetDevice(0));
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  const int64_t max_size = options.mem_max_bytes / 2;  // one buffer: half of read + written
  void* src = nullptr;
  void* dst = nullptr;
  void* weight = nullptr;
  CUDA_CHECK(cudaMalloc(&src, static_cast<size_t>(max_size)));
  CUDA_CHECK(cudaMalloc(&dst, static_cast<size_t>(max_size)));
  CUDA_CHECK(cudaMalloc(&weight, kHidden * sizeof(__nv_bfloat16)));
  FillRandom(weight, kHidden, "bf16", 7, 1.0f, stream);
  uint32_t seed = 11;
  for (int64_t size = options.mem_min_bytes / 2; size <= max_size; size *= 4) {
    FillRandom(src, size / 2, "bf16", seed++, 1.0f, stream);
    const RowKey copy_key{"memory", "copy", "bf16", 0, 0, 0, 2 * size, 1, ""};
    if (!writer.Has(copy_key)) {
      const double t = MedianTimeUs(stream, options.warmup, options.iters, [&] {
        CUDA_CHECK(
            cudaMemcpyAsync(dst, src, static_cast<size_t>(size), cudaMemcpyDeviceToDevice, stream));
      });
      writer.Add(copy_key, t);
      Report("copy", 2 * size, t);
    }
    const int64_t rows = size / (kHidden * 2);
    if (rows < 1) continue;
    const int64_t norm_bytes = 2 * rows * kHidden * 2;
    const RowKey norm_key{"memory", "norm", "bf16", rows, kHidden, 0, norm_bytes, 1, ""};
    if (writer.Has(norm_key)) continue;
    const double t = MedianTimeUs(stream, options.warmup, options.iters, [&] {
      RmsNormKernel<<<static_cast<unsigned>(rows), kNormThreads, 0, stream>>>(
          static_cast<const __nv_bfloat16*>(src), static_cast<const __nv_bfloat16*>(weight),
          static_cast<__nv_bfloat16*>(dst), kHidden);
      CUDA_CHECK(cudaGetLastError());
    });
    writer.Add(norm_key, t);
    Report("norm", norm_bytes, t);
  }
  CUDA_CHECK(cudaFree(weight));
  CUDA_CHECK(cudaFree(dst));
  CUDA_CHECK(cudaFree(src));
  CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace paraplan::calibrate
