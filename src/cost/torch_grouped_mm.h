// PyTorch's grouped GEMM for routed experts, as torchtitan runs it: under a PyTorch fusion profile
// (eager or compile) the experts' up and down projections are `torch._grouped_mm` calls
// (torchtitan/models/moe/moe.py `_run_experts_grouped_mm`, read at 022f885, the V01-V05 rows'
// branch: w1 and w3 are two calls of N = expert_ffn each, w2 one), forward and backward, in bf16.
// That kernel is PyTorch's own CUTLASS grouped GEMM (aten/src/ATen/native/cuda/GroupMM.cu), not
// cuBLAS, and its rate on a part is a measured fact of that kernel, not of the part's GEMMs: the
// hardware file states it as `gpu.measured.torch_grouped_mm` (TFLOP/s of the bf16 dense peak,
// fwd + bwd; docs/formats.md). Where a file states it, the routed experts' GEMMs run no faster
// than that rate (a ceiling: the model's own GEMM rate still applies below it); where none is
// stated (every part but B200 today), nothing changes.
//
// B200's figure: torchao's autograd benchmark of bf16 torch._grouped_mm forward + backward
// (pytorch/ao @ ff163084e, torchao/prototype/moe_training/README.md, "Autograd function" tables,
// benchmarks/prototype/moe_training/benchmark_scaled_grouped_mm_dq.py --compile; torch
// 2.10.0a0+gitf6de195, Oct 2025, the V rows' PyTorch generation): 747-863 TFLOP/s over Llama 4
// Scout and DeepSeek-V3 expert shapes at 128,000 routed tokens and 1-8 experts (6·M·N·K over the
// timed fwd + bwd, which includes an MSE loss on the output), 0.33-0.38 of 2,250, where cuBLAS's
// torch.matmul reaches 1,745 (Bekman's MAMF, the same part). The best of the eight, 863, is the
// ceiling.
#pragma once

#include "cost/plan_shape.h"
#include "hardware/cluster.h"
#include "hardware/measured_rate.h"

namespace paraplan {

// True when the routed experts' grouped calls are torch._grouped_mm ones, one kernel each: a
// PyTorch fusion profile (eager or compile) with grouped GEMMs on (moe_grouped_gemm), or any
// profile that states moe_torch_grouped_mm (NeMo AutoModel's `experts: torch_mm`).
bool TorchGroupedMmCalls(const KernelRecipe& kernels);

// True when the plan's routed experts run at torch._grouped_mm's rate: TorchGroupedMmCalls, in
// bf16 (torchao's fp8 MoE training swaps in its own scaled grouped GEMM).
bool TorchGroupedMm(const PlanShape& shape);

// The measured torch._grouped_mm rate of the cluster's part in FLOP/s (its hardware file's
// gpu.measured.torch_grouped_mm), or 0 when the file states none.
double TorchGroupedMmFlops(const Cluster& cluster);

// The ceiling on the routed experts' GEMM rate under this plan on this cluster in FLOP/s: the
// measured rate when the experts run through torch._grouped_mm, else 0 (no ceiling).
double ExpertGemmCeilingFlops(const PlanShape& shape, const Cluster& cluster);

}  // namespace paraplan
