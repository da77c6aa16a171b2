// Timing by CUDA events: warm-up runs, then each timed run between two events on the stream;
// the median of the runs is the measurement.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "cuda_check.h"

namespace paraplan::calibrate {

inline double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Median time in µs of `launch` (which enqueues work on `stream`).
template <typename Launch>
double MedianTimeUs(cudaStream_t stream, int warmup, int iters, Launch&& launch) {
  for (int i = 0; i < warmup; ++i) launch();
  CUDA_CHECK(cudaStreamSynchronize(stream));
  cudaEvent_t start = nullptr, stop = nullptr;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<double> times_us;
  for (int i = 0; i < iters; ++i) {
    CUDA_CHECK(cudaEventRecord(start, stream));
    launch();
    CUDA_CHECK(cudaEventRecord(stop, stream));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    times_us.push_back(static_cast<double>(ms) * 1e3);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  return Median(times_us);
}

}  // namespace paraplan::calibrate
