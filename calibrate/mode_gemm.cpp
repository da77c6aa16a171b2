// gemm mode: cuBLASLt matmuls D = op(A)·B in bf16 and fp8 (e4m3 inputs, bf16 output, per-tensor
// scale pointers as cuBLASLt requires for fp8 on Hopper), "TN" layout as in Megatron-LM.
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "cuda_check.h"
#include "device_info.h"
#include "modes.h"
#include "random_fill.h"
#include "timing.h"

namespace paraplan::calibrate {
namespace {

constexpr size_t kWorkspaceBytes = size_t{32} << 20;

struct DeviceBuffer {
  void* ptr = nullptr;
  explicit DeviceBuffer(size_t bytes) { CUDA_CHECK(cudaMalloc(&ptr, bytes)); }
  ~DeviceBuffer() { cudaFree(ptr); }
  DeviceBuffer(const DeviceBuffer&) = delete;
  DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

// Owns the cuBLASLt descriptors of one matmul.
struct MatmulPlan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  ~MatmulPlan() {
    if (d) cublasLtMatrixLayoutDestroy(d);
    if (b) cublasLtMatrixLayoutDestroy(b);
    if (a) cublasLtMatrixLayoutDestroy(a);
    if (op) cublasLtMatmulDescDestroy(op);
  }
};

// Column-major: A is k×m (transposed in the op), B is k×n, D is m×n.
void DescribeMatmul(const GemmShape& s, bool fp8, const float* scale, MatmulPlan* plan) {
  const cudaDataType_t in_type = fp8 ? CUDA_R_8F_E4M3 : CUDA_R_16BF;
  CUBLAS_CHECK(cublasLtMatmulDescCreate(&plan->op, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const cublasOperation_t trans = CUBLAS_OP_T, no_trans = CUBLAS_OP_N;
  CUBLAS_CHECK(
      cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSA, &trans, sizeof(trans)));
  CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_TRANSB, &no_trans,
                                              sizeof(no_trans)));
  if (fp8) {
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                &scale, sizeof(scale)));
    CUBLAS_CHECK(cublasLtMatmulDescSetAttribute(plan->op, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                &scale, sizeof(scale)));
  }
  const auto m = static_cast<uint64_t>(s.m), n = static_cast<uint64_t>(s.n),
             k = static_cast<uint64_t>(s.k);
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&plan->a, in_type, k, m, static_cast<int64_t>(k)));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&plan->b, in_type, k, n, static_cast<int64_t>(k)));
  CUBLAS_CHECK(cublasLtMatrixLayoutCreate(&plan->d, CUDA_R_16BF, m, n, static_cast<int64_t>(m)));
}

// Times one shape; returns a negative value when cuBLASLt has no algorithm for it.
double TimeMatmul(cublasLtHandle_t lt, const GemmShape& s, const std::string& dtype,
                  const HarnessOptions& options, uint32_t seed, cudaStream_t stream) {
  const bool fp8 = dtype == "fp8";
  const int64_t elem = DtypeBytes(dtype);
  DeviceBuffer a(static_cast<size_t>(s.m * s.k * elem)), b(static_cast<size_t>(s.k * s.n * elem));
  DeviceBuffer d(static_cast<size_t>(s.m * s.n * 2)), workspace(kWorkspaceBytes);
  DeviceBuffer scale(sizeof(float));
  const float one = 1.0f;
  CUDA_CHECK(cudaMemcpy(scale.ptr, &one, sizeof(one), cudaMemcpyHostToDevice));
  FillRandom(a.ptr, s.m * s.k, dtype, seed, 1.0f, stream);
  FillRandom(b.ptr, s.k * s.n, dtype, seed + 1, 1.0f, stream);

  MatmulPlan plan;
  DescribeMatmul(s, fp8, static_cast<const float*>(scale.ptr), &plan);
  cublasLtMatmulPreference_t pref = nullptr;
  CUBLAS_CHECK(cublasLtMatmulPreferenceCreate(&pref));
  size_t ws = kWorkspaceBytes;
  CUBLAS_CHECK(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                    &ws, sizeof(ws)));
  cublasLtMatmulHeuristicResult_t heuristic{};
  int found = 0;
  const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(lt, plan.op, plan.a, plan.b, plan.d,
                                                               plan.d, pref, 1, &heuristic, &found);
  cublasLtMatmulPreferenceDestroy(pref);
  if (status != CUBLAS_STATUS_SUCCESS || found == 0) return -1;

  const float alpha = 1.0f, beta = 0.0f;
  return MedianTimeUs(stream, options.warmup, options.iters, [&] {
    CUBLAS_CHECK(cublasLtMatmul(lt, plan.op, &alpha, a.ptr, plan.a, b.ptr, plan.b, &beta, d.ptr,
                                plan.d, d.ptr, plan.d, &heuristic.algo, workspace.ptr,
                                kWorkspaceBytes, stream));
  });
}

std::vector<GemmShape> AllShapes(const HarnessOptions& options) {
  std::vector<GemmShape> shapes = options.shapes;
  for (const auto& s : LayerGemmShapes(options)) shapes.push_back(s);
  if (options.generic_grid) {
    for (const auto& s : GenericGemmGrid()) shapes.push_back(s);
  }
  return shapes;
}

}  // namespace

void RunGemmMode(const HarnessOptions& options, CsvWriter& writer) {
  CUDA_CHECK(cudaSetDevice(0));
  const int cc = ComputeCapability(0);
  cudaStream_t stream = nullptr;
  CUDA_CHECK(cudaStreamCreate(&stream));
  cublasLtHandle_t lt = nullptr;
  CUBLAS_CHECK(cublasLtCreate(&lt));
  uint32_t seed = 1;
  for (const std::string& dtype : options.dtypes) {
    if (dtype == "fp8" && cc < 89) {
      std::fprintf(stderr, "gemm: skipping fp8: needs compute capability 8.9+, this GPU is %d.%d\n",
                   cc / 10, cc % 10);
      continue;
    }
    for (const GemmShape& s : AllShapes(options)) {
      const RowKey key{"gemm", "matmul", dtype, s.m, s.n, s.k, 0, 1, ""};
      if (writer.Has(key)) continue;
      if (dtype == "fp8" && (s.m % 16 != 0 || s.n % 16 != 0 || s.k % 16 != 0)) {
        std::fprintf(stderr, "gemm: skipping fp8 %ldx%ldx%ld: fp8 needs multiples of 16\n",
                     static_cast<long>(s.m), static_cast<long>(s.n), static_cast<long>(s.k));
        continue;
      }
      const double time_us = TimeMatmul(lt, s, dtype, options, seed += 2, stream);
      if (time_us <= 0) {
        std::fprintf(stderr, "gemm: no cuBLASLt algorithm for %s %ldx%ldx%ld; skipped\n",
                     dtype.c_str(), static_cast<long>(s.m), static_cast<long>(s.n),
                     static_cast<long>(s.k));
        continue;
      }
      writer.Add(key, time_us);
      const double tflops = 2.0 * static_cast<double>(s.m) * static_cast<double>(s.n) *
                            static_cast<double>(s.k) / time_us * 1e-6;
      std::fprintf(stderr, "gemm %s %ldx%ldx%ld: %.1f us, %.1f TFLOP/s\n", dtype.c_str(),
                   static_cast<long>(s.m), static_cast<long>(s.n), static_cast<long>(s.k), time_us,
                   tflops);
    }
  }
  CUBLAS_CHECK(cublasLtDestroy(lt));
  CUDA_CHECK(cudaStreamDestroy(stream));
}

}  // namespace paraplan::calibrate
