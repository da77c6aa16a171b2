// A small owner of cuDNN backend descriptors for building one operation graph, choosing an engine
// by heuristics and executing it (the cuDNN "graph API" without the cudnn-frontend headers).
// Every cuDNN call is checked: a failure throws HarnessError with the call, file and line,
// cudnnGetErrorString and cudnnGetLastErrorString.
#pragma once

#include <cudnn.h>

#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "harness_error.h"

namespace paraplan::calibrate {

void CheckCudnn(cudnnStatus_t status, const char* call, const char* file, int line);
// cuDNN's message for the last failed call ("" when none).
std::string CudnnLastError();

#define CUDNN_CHECK(call) ::paraplan::calibrate::CheckCudnn((call), #call, __FILE__, __LINE__)

using Dims4 = std::array<int64_t, 4>;

// Packed strides of a 4-D shape (last dimension contiguous).
Dims4 PackedStrides(const Dims4& dims);

struct TensorRef {
  cudnnBackendDescriptor_t desc = nullptr;
  int64_t uid = 0;
};

struct TensorSpec {
  int64_t uid = 0;  // 0: the graph picks one (virtual tensors)
  cudnnDataType_t type = CUDNN_DATA_FLOAT;
  Dims4 dims{};
  Dims4 strides{};
  bool is_virtual = false;
  bool by_value = false;        // a host scalar passed in the variant pack
  bool reorder_f16x16 = false;  // CUDNN_TENSOR_REORDERING_F16x16
};

class CudnnGraph {
 public:
  explicit CudnnGraph(cudnnHandle_t handle) : handle_(handle) {}
  ~CudnnGraph();
  CudnnGraph(const CudnnGraph&) = delete;
  CudnnGraph& operator=(const CudnnGraph&) = delete;

  TensorRef Tensor(const TensorSpec& spec);
  // A virtual tensor of `type` with packed strides, or the given strides.
  TensorRef Virtual(const Dims4& dims, cudnnDataType_t type = CUDNN_DATA_FLOAT);
  TensorRef Virtual(const Dims4& dims, const Dims4& strides, cudnnDataType_t type);
  // A by-value float scalar [1,1,1,1].
  TensorRef Scalar(int64_t uid);

  // y = mode(x[, b[, t]]); axis is for GEN_INDEX.
  void Pointwise(cudnnPointwiseMode_t mode, TensorRef x, TensorRef y, const TensorRef* b = nullptr,
                 const TensorRef* t = nullptr, cudnnDataType_t compute = CUDNN_DATA_FLOAT,
                 int64_t axis = -1);
  void Matmul(TensorRef a, TensorRef b, TensorRef c);
  void Reduce(cudnnReduceTensorOp_t op, TensorRef x, TensorRef y);
  void Reshape(TensorRef x, TensorRef y);

  // Finalizes the operation graph, asks the heuristics for engine configurations and keeps the
  // first that builds an execution plan. Throws HarnessError naming `what` when none does.
  void Build(const std::string& what);
  int64_t workspace_bytes() const { return workspace_bytes_; }
  // Binds uid → pointer (device buffers; host scalars for by-value tensors, which must outlive
  // the runs) and the workspace into a variant pack, then Run() enqueues the plan on the handle's
  // stream without rebuilding it.
  void Bind(const std::vector<std::pair<int64_t, void*>>& bindings, void* workspace);
  void Run() const;

 private:
  cudnnBackendDescriptor_t Create(cudnnBackendDescriptorType_t type);
  void AddOp(cudnnBackendDescriptor_t op) { ops_.push_back(op); }

  cudnnHandle_t handle_;
  std::vector<cudnnBackendDescriptor_t> owned_;
  std::vector<cudnnBackendDescriptor_t> ops_;
  cudnnBackendDescriptor_t plan_ = nullptr;
  cudnnBackendDescriptor_t pack_ = nullptr;
  int64_t workspace_bytes_ = 0;
  int64_t next_virtual_uid_ = 1000;
};

}  // namespace paraplan::calibrate
