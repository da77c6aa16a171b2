// Checked CUDA, cuBLASLt and NCCL calls: a failure throws HarnessError naming the call, the file
// and line, and the library's own message. main() prints it and exits 1.
#pragma once

#include <cublasLt.h>
#include <cuda_runtime.h>

#include <string>

#include "harness_error.h"

namespace paraplan::calibrate {

inline std::string CallSite(const char* call, const char* file, int line) {
  return std::string(file) + ":" + std::to_string(line) + ": " + call + " failed: ";
}

inline void CheckCuda(cudaError_t status, const char* call, const char* file, int line) {
  if (status != cudaSuccess) {
    throw HarnessError(CallSite(call, file, line) + cudaGetErrorName(status) + " (" +
                       cudaGetErrorString(status) + ")");
  }
}

inline void CheckCublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw HarnessError(CallSite(call, file, line) + "cuBLAS status " +
                       std::to_string(static_cast<int>(status)));
  }
}

}  // namespace paraplan::calibrate

#define CUDA_CHECK(call) ::paraplan::calibrate::CheckCuda((call), #call, __FILE__, __LINE__)
#define CUBLAS_CHECK(call) ::paraplan::calibrate::CheckCublas((call), #call, __FILE__, __LINE__)
