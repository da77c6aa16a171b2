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
// What is left out: the weight casts (with FSDP's float8 all-gather they run on the 1/dp shard,
// fsdp_utils.py fsdp_pre_all_gather; without it on the whole local weight; which one a row ran
// is rarely stated), the amax all-reduces over the TP group (latency-bound), and the routed
// experts' layouts (torchtitan's float8 MoE came later, with its own grouped GEMM).
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

// The float8 casts and the backward's fp8 layout copies of one layer of `kind` (one micro-batch,
// one GPU): op "fp8 cast".
ElementwiseOp TorchaoFloat8Casts(const CostGraph& dims, int kind, const PlanShape& shape);

}  // namespace paraplan
