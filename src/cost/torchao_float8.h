// torchao's dynamic tensorwise float8 training as torchtitan runs it (precision fp8 under an eager
// or compiled PyTorch profile): the casts around each Float8Linear, the layout copies its
// backward GEMMs need, and what torchtitan's float8 tensor-parallel plan changes. Read in
// pytorch/ao at eab345c (2024-12-23, the torchtitan December 2024 benchmark's torchao):
//  - torchao/float8/float8_linear.py (tensorwise path): the forward casts the input
//    (hp_tensor_to_float8_dynamic: an amax reduction, then the scaled cast to e4m3) and the
//    weight; the backward casts the output gradient to e5m2 (NoopFwToFloat8BwDynamic) and runs
//    grad_input = grad_output @ weight_fp8 and grad_weight = grad_output.t() @ input_fp8;
//  - torchao/float8/float8_ops.py, preprocess_addmm: torch._scaled_mm takes a row-major first
//    and a column-major second operand, so the backward copies three fp8 tensors: the weight
//    (b.t().contiguous().t(), row-major for the input gradient), the output gradient
//    (a.contiguous() of its transpose) and the saved input (b.t().contiguous().t()) for the weight
//    gradient: each a read and a write of one byte per element;
//  - torchao/float8/float8_tensor_parallel.py: under tensor parallelism torchtitan's plan uses
//    PrepareFloat8ModuleInput, Float8ColwiseParallel and Float8RowwiseParallel
//    (torchtitan/parallelisms/parallelize_llama.py at 9dec370, apply_tp with enable_float8): the
//    attention's and the MLP's input are cast once, on the rank's sequence shard, before the
//    all-gather, which then moves fp8; the row-parallel outputs' gradients are cast on the shard
//    too (NoopFwToFloat8BwDynamic after the output's redistribute), so the backward's all-gathers
//    move fp8 (float8_ops.py gathers the fp8 _data). The reduce-scatters (partial sums, the
//    inputs' gradients) stay bf16.
//  - the weights (float8_linear.py, tensorwise forward): every forward takes the weight's amax
//    (get_weight_scale -> tensor_to_scale) and casts it (cast_weight_to_float8_t); the backward
//    reuses the saved weight_fp8_t. FSDP2's unsharded weight is a graph input, so torch.compile
//    has no producer to fuse that amax into: an amax pass and a cast in either mode. With FSDP's
//    float8 all-gather (fsdp_float8_all_gather; fsdp_utils.py, fsdp_pre_all_gather) the cast
//    runs on the rank's 1/dp shard before each gather and the gathered weight is already float8
//    (tensor_already_casted_to_fp8): a cast of the shard per gather, forward and backward.
// What is left out: the amax all-reduces over the TP group (latency-bound), the per-step scale
// of precompute_float8_dynamic_scale_for_fsdp (one _foreach_norm and one all-reduce), and the
// routed experts' weights and layouts (torchtitan's float8 MoE came later, with its own grouped
// GEMM).
#pragma once

#include "cost/cost_graph.h"
#include "cost/elementwise_cost.h"
#include "cost/plan_shape.h"

namespace paraplan {

// True when the plan trains with torchao's float8 Linear layers (precision fp8 under an eager or
// compiled PyTorch fusion profile).
bool TorchaoFloat8(const PlanShape& shape);

// Bytes per element of a sequence-parallel TP all-gather (the attention's and MLP's inputs
// forward, the row-parallel outputs' gradients backward): 1 under torchao's float8 TP, else bf16.
double TpAllGatherBytesPerElement(const PlanShape& shape);

// Bytes per element FSDP2 gathers (and copies out) of a layer's dense weights: 1 under torchao's
// float8 all-gather (kernel_recipe.h, fsdp_float8_all_gather), else bf16. The embedding and
// output layers are not Float8Linear and stay bf16.
double FsdpLayerGatherBytesPerElement(const PlanShape& shape);

// The float8 casts and the backward's fp8 layout copies of one layer of `kind` (one micro-batch,
// one GPU): op "fp8 cast".
ElementwiseOp TorchaoFloat8Casts(const CostGraph& dims, int kind, const PlanShape& shape);

}  // namespace paraplan
