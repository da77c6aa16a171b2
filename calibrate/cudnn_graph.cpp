// The cuDNN backend descriptor plumbing of CudnnGraph (see cudnn_graph.h).
#include "cudnn_graph.h"

#include <cstdio>

namespace paraplan::calibrate {

std::string CudnnLastError() {
#if CUDNN_MAJOR >= 9
  char message[4096] = {};
  cudnnGetLastErrorString(message, sizeof(message));
  return message;
#else
  return "";
#endif
}

void CheckCudnn(cudnnStatus_t status, const char* call, const char* file, int line) {
  if (status == CUDNN_STATUS_SUCCESS) return;
  std::string text = std::string(file) + ":" + std::to_string(line) + ": " + call +
                     " failed: " + cudnnGetErrorString(status);
  const std::string last = CudnnLastError();
  if (!last.empty()) text += " (" + last + ")";
  throw HarnessError(text);
}

Dims4 PackedStrides(const Dims4& dims) {
  return {dims[1] * dims[2] * dims[3], dims[2] * dims[3], dims[3], 1};
}

namespace {

void Set(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
         cudnnBackendAttributeType_t type, int64_t count, const void* value, const char* what) {
  CheckCudnn(cudnnBackendSetAttribute(d, name, type, count, value), what, __FILE__, __LINE__);
}

void SetDesc(cudnnBackendDescriptor_t d, cudnnBackendAttributeName_t name,
             cudnnBackendDescriptor_t value, const char* what) {
  Set(d, name, CUDNN_TYPE_BACKEND_DESCRIPTOR, 1, &value, what);
}

}  // namespace

CudnnGraph::~CudnnGraph() {
  for (auto it = owned_.rbegin(); it != owned_.rend(); ++it) cudnnBackendDestroyDescriptor(*it);
}

cudnnBackendDescriptor_t CudnnGraph::Create(cudnnBackendDescriptorType_t type) {
  cudnnBackendDescriptor_t d = nullptr;
  CUDNN_CHECK(cudnnBackendCreateDescriptor(type, &d));
  owned_.push_back(d);
  return d;
}

TensorRef CudnnGraph::Tensor(const TensorSpec& spec) {
  TensorRef t;
  t.uid = spec.uid != 0 ? spec.uid : next_virtual_uid_++;
  t.desc = Create(CUDNN_BACKEND_TENSOR_DESCRIPTOR);
  const int64_t alignment = 16;
  Set(t.desc, CUDNN_ATTR_TENSOR_DATA_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &spec.type, "tensor type");
  Set(t.desc, CUDNN_ATTR_TENSOR_DIMENSIONS, CUDNN_TYPE_INT64, 4, spec.dims.data(), "tensor dims");
  Set(t.desc, CUDNN_ATTR_TENSOR_STRIDES, CUDNN_TYPE_INT64, 4, spec.strides.data(), "strides");
  Set(t.desc, CUDNN_ATTR_TENSOR_UNIQUE_ID, CUDNN_TYPE_INT64, 1, &t.uid, "tensor uid");
  Set(t.desc, CUDNN_ATTR_TENSOR_BYTE_ALIGNMENT, CUDNN_TYPE_INT64, 1, &alignment, "alignment");
  const bool is_virtual = spec.is_virtual, by_value = spec.by_value;
  Set(t.desc, CUDNN_ATTR_TENSOR_IS_VIRTUAL, CUDNN_TYPE_BOOLEAN, 1, &is_virtual, "virtual");
  if (by_value) Set(t.desc, CUDNN_ATTR_TENSOR_IS_BY_VALUE, CUDNN_TYPE_BOOLEAN, 1, &by_value, "bv");
  if (spec.reorder_f16x16) {
    const cudnnBackendTensorReordering_t mode = CUDNN_TENSOR_REORDERING_F16x16;
    Set(t.desc, CUDNN_ATTR_TENSOR_REORDERING_MODE, CUDNN_TYPE_TENSOR_REORDERING_MODE, 1, &mode,
        "tensor reordering");
  }
  CUDNN_CHECK(cudnnBackendFinalize(t.desc));
  return t;
}

TensorRef CudnnGraph::Virtual(const Dims4& dims, cudnnDataType_t type) {
  return Virtual(dims, PackedStrides(dims), type);
}

TensorRef CudnnGraph::Virtual(const Dims4& dims, const Dims4& strides, cudnnDataType_t type) {
  TensorSpec spec;
  spec.type = type;
  spec.dims = dims;
  spec.strides = strides;
  spec.is_virtual = true;
  return Tensor(spec);
}

TensorRef CudnnGraph::Scalar(int64_t uid) {
  TensorSpec spec;
  spec.uid = uid;
  spec.dims = {1, 1, 1, 1};
  spec.strides = {1, 1, 1, 1};
  spec.by_value = true;
  return Tensor(spec);
}

void CudnnGraph::Pointwise(cudnnPointwiseMode_t mode, TensorRef x, TensorRef y, const TensorRef* b,
                           const TensorRef* t, cudnnDataType_t compute, int64_t axis) {
  cudnnBackendDescriptor_t pw = Create(CUDNN_BACKEND_POINTWISE_DESCRIPTOR);
  Set(pw, CUDNN_ATTR_POINTWISE_MODE, CUDNN_TYPE_POINTWISE_MODE, 1, &mode, "pointwise mode");
  Set(pw, CUDNN_ATTR_POINTWISE_MATH_PREC, CUDNN_TYPE_DATA_TYPE, 1, &compute, "pointwise prec");
  if (axis >= 0) Set(pw, CUDNN_ATTR_POINTWISE_AXIS, CUDNN_TYPE_INT64, 1, &axis, "pointwise axis");
  CUDNN_CHECK(cudnnBackendFinalize(pw));
  cudnnBackendDescriptor_t op = Create(CUDNN_BACKEND_OPERATION_POINTWISE_DESCRIPTOR);
  SetDesc(op, CUDNN_ATTR_OPERATION_POINTWISE_PW_DESCRIPTOR, pw, "pointwise op desc");
  SetDesc(op, CUDNN_ATTR_OPERATION_POINTWISE_XDESC, x.desc, "pointwise x");
  if (b != nullptr) SetDesc(op, CUDNN_ATTR_OPERATION_POINTWISE_BDESC, b->desc, "pointwise b");
  if (t != nullptr) SetDesc(op, CUDNN_ATTR_OPERATION_POINTWISE_TDESC, t->desc, "pointwise t");
  SetDesc(op, CUDNN_ATTR_OPERATION_POINTWISE_YDESC, y.desc, "pointwise y");
  CUDNN_CHECK(cudnnBackendFinalize(op));
  AddOp(op);
}

void CudnnGraph::Matmul(TensorRef a, TensorRef b, TensorRef c) {
  cudnnBackendDescriptor_t mm = Create(CUDNN_BACKEND_MATMUL_DESCRIPTOR);
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  Set(mm, CUDNN_ATTR_MATMUL_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute, "matmul compute type");
  CUDNN_CHECK(cudnnBackendFinalize(mm));
  cudnnBackendDescriptor_t op = Create(CUDNN_BACKEND_OPERATION_MATMUL_DESCRIPTOR);
  SetDesc(op, CUDNN_ATTR_OPERATION_MATMUL_ADESC, a.desc, "matmul a");
  SetDesc(op, CUDNN_ATTR_OPERATION_MATMUL_BDESC, b.desc, "matmul b");
  SetDesc(op, CUDNN_ATTR_OPERATION_MATMUL_CDESC, c.desc, "matmul c");
  SetDesc(op, CUDNN_ATTR_OPERATION_MATMUL_DESC, mm, "matmul desc");
  CUDNN_CHECK(cudnnBackendFinalize(op));
  AddOp(op);
}

void CudnnGraph::Reduce(cudnnReduceTensorOp_t reduce, TensorRef x, TensorRef y) {
  cudnnBackendDescriptor_t rd = Create(CUDNN_BACKEND_REDUCTION_DESCRIPTOR);
  const cudnnDataType_t compute = CUDNN_DATA_FLOAT;
  Set(rd, CUDNN_ATTR_REDUCTION_OPERATOR, CUDNN_TYPE_REDUCTION_OPERATOR_TYPE, 1, &reduce,
      "reduction operator");
  Set(rd, CUDNN_ATTR_REDUCTION_COMP_TYPE, CUDNN_TYPE_DATA_TYPE, 1, &compute, "reduction type");
  CUDNN_CHECK(cudnnBackendFinalize(rd));
  cudnnBackendDescriptor_t op = Create(CUDNN_BACKEND_OPERATION_REDUCTION_DESCRIPTOR);
  SetDesc(op, CUDNN_ATTR_OPERATION_REDUCTION_XDESC, x.desc, "reduction x");
  SetDesc(op, CUDNN_ATTR_OPERATION_REDUCTION_YDESC, y.desc, "reduction y");
  SetDesc(op, CUDNN_ATTR_OPERATION_REDUCTION_DESC, rd, "reduction desc");
  CUDNN_CHECK(cudnnBackendFinalize(op));
  AddOp(op);
}

void CudnnGraph::Reshape(TensorRef x, TensorRef y) {
  cudnnBackendDescriptor_t op = Create(CUDNN_BACKEND_OPERATION_RESHAPE_DESCRIPTOR);
  SetDesc(op, CUDNN_ATTR_OPERATION_RESHAPE_XDESC, x.desc, "reshape x");
  SetDesc(op, CUDNN_ATTR_OPERATION_RESHAPE_YDESC, y.desc, "reshape y");
  CUDNN_CHECK(cudnnBackendFinalize(op));
  AddOp(op);
}

void CudnnGraph::Build(const std::string& what) {
  cudnnBackendDescriptor_t graph = Create(CUDNN_BACKEND_OPERATIONGRAPH_DESCRIPTOR);
  Set(graph, CUDNN_ATTR_OPERATIONGRAPH_OPS, CUDNN_TYPE_BACKEND_DESCRIPTOR,
      static_cast<int64_t>(ops_.size()), ops_.data(), "graph ops");
  // The handle attributes are deprecated in cuDNN 9.x but still honoured; a library that refuses
  // them reports the problem at finalization.
  cudnnBackendSetAttribute(graph, CUDNN_ATTR_OPERATIONGRAPH_HANDLE, CUDNN_TYPE_HANDLE, 1, &handle_);
  const cudnnStatus_t graph_status = cudnnBackendFinalize(graph);
  if (graph_status != CUDNN_STATUS_SUCCESS) {
    throw HarnessError("cuDNN rejected the " + what + " operation graph (" +
                       std::to_string(ops_.size()) + " ops): " + cudnnGetErrorString(graph_status) +
                       " (" + CudnnLastError() + ")");
  }
  std::string tried;
  for (cudnnBackendHeurMode_t mode : {CUDNN_HEUR_MODE_A, CUDNN_HEUR_MODE_FALLBACK}) {
    cudnnBackendDescriptor_t heur = Create(CUDNN_BACKEND_ENGINEHEUR_DESCRIPTOR);
    SetDesc(heur, CUDNN_ATTR_ENGINEHEUR_OPERATION_GRAPH, graph, "heuristics graph");
    Set(heur, CUDNN_ATTR_ENGINEHEUR_MODE, CUDNN_TYPE_HEUR_MODE, 1, &mode, "heuristics mode");
    const cudnnStatus_t heur_status = cudnnBackendFinalize(heur);
    if (heur_status != CUDNN_STATUS_SUCCESS) {
      tried += " heuristics mode " + std::to_string(mode) + ": " +
               cudnnGetErrorString(heur_status) + " (" + CudnnLastError() + ");";
      continue;
    }
    int64_t count = 0;
    CUDNN_CHECK(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                         CUDNN_TYPE_BACKEND_DESCRIPTOR, 0, &count, nullptr));
    std::vector<cudnnBackendDescriptor_t> configs;
    for (int64_t i = 0; i < count; ++i)
      configs.push_back(Create(CUDNN_BACKEND_ENGINECFG_DESCRIPTOR));
    int64_t returned = 0;
    if (count > 0) {
      CUDNN_CHECK(cudnnBackendGetAttribute(heur, CUDNN_ATTR_ENGINEHEUR_RESULTS,
                                           CUDNN_TYPE_BACKEND_DESCRIPTOR, count, &returned,
                                           configs.data()));
    }
    tried += " heuristics mode " + std::to_string(mode) + ": " + std::to_string(returned) +
             " configurations;";
    for (int64_t i = 0; i < returned; ++i) {
      cudnnBackendDescriptor_t plan = Create(CUDNN_BACKEND_EXECUTION_PLAN_DESCRIPTOR);
      cudnnBackendSetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_HANDLE, CUDNN_TYPE_HANDLE, 1,
                               &handle_);
      SetDesc(plan, CUDNN_ATTR_EXECUTION_PLAN_ENGINE_CONFIG, configs[i], "plan engine config");
      const cudnnStatus_t plan_status = cudnnBackendFinalize(plan);
      if (plan_status != CUDNN_STATUS_SUCCESS) {
        tried += " config " + std::to_string(i) + ": " + cudnnGetErrorString(plan_status) + " (" +
                 CudnnLastError() + ");";
        continue;
      }
      int64_t bytes = 0, n = 0;
      CUDNN_CHECK(cudnnBackendGetAttribute(plan, CUDNN_ATTR_EXECUTION_PLAN_WORKSPACE_SIZE,
                                           CUDNN_TYPE_INT64, 1, &n, &bytes));
      plan_ = plan;
      workspace_bytes_ = bytes;
      std::fprintf(
          stderr, "paraplan-calibrate: cuDNN %s: engine config %ld of %ld (heuristics %d)\n",
          what.c_str(), static_cast<long>(i), static_cast<long>(returned), static_cast<int>(mode));
      return;
    }
  }
  throw HarnessError("no cuDNN engine supports the " + what + " graph on this GPU/cuDNN (" +
                     std::to_string(cudnnGetVersion()) + "):" + tried);
}

void CudnnGraph::Bind(const std::vector<std::pair<int64_t, void*>>& bindings, void* workspace) {
  if (plan_ == nullptr) throw HarnessError("CudnnGraph::Bind before Build");
  std::vector<int64_t> uids;
  std::vector<void*> pointers;
  for (const auto& [uid, pointer] : bindings) {
    uids.push_back(uid);
    pointers.push_back(pointer);
  }
  pack_ = Create(CUDNN_BACKEND_VARIANT_PACK_DESCRIPTOR);
  const auto n = static_cast<int64_t>(uids.size());
  Set(pack_, CUDNN_ATTR_VARIANT_PACK_UNIQUE_IDS, CUDNN_TYPE_INT64, n, uids.data(), "pack uids");
  Set(pack_, CUDNN_ATTR_VARIANT_PACK_DATA_POINTERS, CUDNN_TYPE_VOID_PTR, n, pointers.data(),
      "pack pointers");
  Set(pack_, CUDNN_ATTR_VARIANT_PACK_WORKSPACE, CUDNN_TYPE_VOID_PTR, 1, &workspace, "workspace");
  CUDNN_CHECK(cudnnBackendFinalize(pack_));
}

void CudnnGraph::Run() const {
  if (pack_ == nullptr) throw HarnessError("CudnnGraph::Run before Bind");
  CUDNN_CHECK(cudnnBackendExecute(handle_, plan_, pack_));
}

}  // namespace paraplan::calibrate
