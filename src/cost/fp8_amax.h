// TransformerEngine's delayed-scaling bookkeeping (the FP8 recipe of Megatron-Core and NeMo):
// at the exit of each fp8_autocast region, and after that region's backward, the amaxes its FP8
// GEMMs recorded are concatenated, all-reduced (MAX, async_op=False: on the compute stream) over
// the amax reduction group, and the amax histories and scales updated by one fused kernel
// (TE 1.x transformer_engine/pytorch/fp8.py, FP8GlobalStateManager.reduce_and_update_fp8_tensors
// and reduce_tensor_across_group_op_max). Megatron-Core wraps one model chunk's layers in one
// region per micro-batch (TransformerBlock.forward, fp8_autocast with
// fp8_group = get_amax_reduction_group(with_context_parallel=True): the tp x cp x dp ranks of a
// pipeline stage). docs/cost-model.md, "FP8 scaling bookkeeping".
#pragma once

#include "cost/plan_shape.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// Amax entries one layer's GEMMs record per pass: input, weight and output of each of its four
// TE GEMMs forward (fp8_meta["scaling_fwd"], 3 per GEMM), the output and input gradients
// backward (2 per GEMM). A chunk's buffer is small: the all-reduce is latency-bound.
inline constexpr double kAmaxPerLayerFwd = 12, kAmaxPerLayerBwd = 8;
inline constexpr double kAmaxUpdateKernels = 2;  // torch.cat of the buffer, the fused update

// Current scaling (fp8_recipe tensorwise) keeps no history (TE 2.x fp8.py, fp8_autocast_exit:
// the reduction is a no-op for every recipe but delayed); instead a sequence-parallel
// LayerNormLinear's input cast (forward) and a row-parallel Linear's output-gradient cast
// (backward) all-reduce their one float32 amax over the TP group, synchronously, before casting
// (TE 2.x module/linear.py and layernorm_linear.py, _customize_quantizers_float8_current_scaling:
// with_amax_reduction; csrc/quantizer.cpp, quantize_impl: allreduce(...)->wait()). Two per layer
// and pass: QKV and FC1 forward, the attention projection and FC2 backward.
inline constexpr double kTensorwiseAmaxReductionsPerLayer = 2;

// Seconds one chunk's forward (or backward) adds for the bookkeeping. Delayed scaling: the
// all-reduce of kAmaxPerLayerFwd x layers float32 amaxes over tp x cp x dp ranks, and
// kAmaxUpdateKernels launches. Tensorwise: kTensorwiseAmaxReductionsPerLayer x layers all-reduces
// of one float32 over TP (sequence parallelism with tp > 1; else 0). MXFP8: 0 (a scale per 32
// elements inside the cast kernel). 0 unless the plan runs TransformerEngine FP8 (precision fp8,
// fusion te or apex); 0 for DualPipe plans, whose DeepSeek-V3 recipe scales per tile and block
// inside the cast kernels (report §3.3.2) with no delayed amax.
double Fp8AmaxSeconds(const Cluster& cluster, const NetworkLinks& links, const ParallelPlan& plan,
                      const PlanShape& shape, double chunk_layers);

}  // namespace paraplan
