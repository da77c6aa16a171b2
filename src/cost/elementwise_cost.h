// The memory-bound ops of one transformer layer (norms, RoPE, the MLP activation, residual adds,
// dropout, the unfused attention's softmax, FP8 casts) and the kernels the layer launches, for
// one micro-batch on one GPU under the plan's fusion profile (plan/kernel_recipe.h). Each op
// moves a number of HBM bytes per element that follows from the kernels the framework runs for
// it — read from the framework's code, listed with its source in docs/framework-fusion.md — and
// costs bytes / achieved HBM bandwidth (compute_cost.h). Nothing here is fitted.
#pragma once

#include <array>
#include <cstddef>

#include "cost/cost_graph.h"
#include "cost/plan_shape.h"

namespace paraplan {

struct ElementwiseOp {
  const char* name = "";
  double fwd_bytes = 0;  // HBM bytes moved by the forward kernels
  double bwd_bytes = 0;  // and by their backward
  double fwd_kernels = 0;
  double bwd_kernels = 0;
  // Launched by the host even in a CUDA-graphed plan (the MoE dispatch and experts around a host
  // sync, moe_ops.h): each kernel costs kernel_launch_us, not the graph's replay gap.
  bool eager = false;
};

// HBM bytes per element and kernels per cast of TransformerEngine's FP8 casts under `recipe`
// (TE 2.x: transformer_engine/pytorch/csrc/quantizer.cpp, Float8CurrentScalingQuantizer::
// quantize_impl; csrc/extensions/normalization.cpp, the fused norm for delayed scaling only;
// module/layernorm_linear.py, the norm output's usages around the SP all-gather):
//  cast / cast_kernels: one explicitly cast GEMM input or output gradient (row-wise and
//    column-wise copies: the wgrad GEMM needs the transposed one);
//  norm_cast / norm_cast_kernels: the norm output of a LayerNormLinear, per element of the
//    (sequence-parallel: sharded) norm output, forward;
//  norm_transpose / norm_transpose_kernels: its fp8 transpose, per element of the (gathered)
//    input, backward.
// input_all_gather: the norm output is all-gathered (sequence parallelism with tp > 1);
// any_layout: the GPU's FP8 GEMMs take non-TN operands (PlanShape::fp8_any_layout), so the
// per-tensor recipes keep no transposed copy.
struct TeFp8Recipe {
  double cast, cast_kernels, norm_cast, norm_transpose, norm_cast_kernels, norm_transpose_kernels;
};
// MXFP8's block: one E8M0 scale byte per 32 elements (OCP MX v1.0; TE's MXFP8BlockScaling).
inline constexpr double kMxfp8BlockElements = 32;
TeFp8Recipe TeFp8RecipeBytes(Fp8Recipe recipe, bool input_all_gather, bool any_layout);

struct LayerElementwise {
  static constexpr size_t kMaxOps = 12;
  std::array<ElementwiseOp, kMaxOps> ops{};
  size_t count = 0;
  size_t scores = kMaxOps;  // index of the unfused attention's softmax+dropout; kMaxOps: none

  void Add(const ElementwiseOp& op) {
    if (count < kMaxOps) ops[count++] = op;
  }
  // The sum of one field over the ops.
  double Sum(double ElementwiseOp::*field) const;
  double FwdBytes() const { return Sum(&ElementwiseOp::fwd_bytes); }
  double BwdBytes() const { return Sum(&ElementwiseOp::bwd_bytes); }
  double FwdKernels() const { return Sum(&ElementwiseOp::fwd_kernels); }
  double BwdKernels() const { return Sum(&ElementwiseOp::bwd_kernels); }
  // Kernels of the ops launched outside a CUDA graph (ElementwiseOp::eager).
  double EagerKernels(double ElementwiseOp::*field) const;
};

// The element-wise ops of a layer of `kind` (attention's softmax only when the profile has no
// FlashAttention; the core attention itself and the GEMMs are costed in layer_cost.cpp).
LayerElementwise ComputeLayerElementwise(const CostGraph& dims, int kind, const PlanShape& shape);

// Forward kernels of a layer's GEMMs and core attention under the profile (the backward launches
// twice as many: input and weight gradients).
double LayerMatmulKernels(const CostGraph& dims, int kind, const PlanShape& shape);

// Forward calls of an MoE layer's routed-expert GEMMs (up and down) as the framework makes them:
// one grouped call each, or one per local expert without moe_grouped_gemm (Megatron-Core's
// SequentialMLP); 0 for a dense layer. Transformer Engine casts each call's fp8 input in one
// multi-tensor kernel.
double ExpertGemmCalls(const CostGraph& dims, int kind, const PlanShape& shape);

// Forward GEMM kernels the host launches for those calls. A grouped call is one kernel only under
// a PyTorch profile (torchtitan's torch._grouped_mm, cost/torch_grouped_mm.h). Under Megatron-Core
// with Transformer Engine (TEGroupedMLP -> te.pytorch.GroupedLinear -> general_grouped_gemm) it
// is nvte_multi_stream_cublas_gemm: a host loop issuing one cuBLASLt GEMM per local expert,
// round-robin on 4 compute streams (TE PR #853, 2024-05; transformer_engine/common/gemm/
// cublaslt_gemm.cu at NVIDIA/TransformerEngine@5c62f72, `num_streams = 4` in gemm.h). TE's
// single-launch grouped kernels (CUTLASS, PR #2045 on Hopper bf16; PR #3134/#3175 on SM100 NVFP4)
// are opt-in behind environment variables and, as of 2026-07, leave GroupedLinear's default path
// unchanged. So with moe_grouped_gemm each local expert still launches its own GEMMs: 2 x local
// experts forward (twice as many backward), as SequentialMLP does.
double ExpertGemmKernels(const CostGraph& dims, int kind, const PlanShape& shape);

// Seconds one kernel launch adds outside a CUDA graph: kernel_launch_us.
double EagerLaunchSeconds(const Cluster& cluster);

// Seconds one kernel launch adds: kernel_launch_us, or the device-side gap of a CUDA-graph
// replay (docs/framework-fusion.md).
double LaunchSeconds(const Cluster& cluster, const PlanShape& shape);

}  // namespace paraplan
