// Memory per pipeline stage: weights, gradients and Adam state under ZeRO 0-3, activations held
// under the schedule, logits/loss workspace, communication buffers and an allocator reserve.
// Every formula is in docs/cost-model.md ("Memory") with its source.
#pragma once

#include <cstdint>

#include "cost/step_result.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// Bytes per parameter in mixed-precision Adam (Rajbhandari et al., ZeRO, SC'20): 2 (bf16
// weights) + 4 (fp32 gradient accumulation, Megatron-LM main_grad) + 12 (fp32 master, m, v).
inline constexpr double kWeightBytes = 2, kGradBytes = 4, kOptimizerBytes = 12;
// CUDA context, cuBLAS/cuDNN workspaces and NCCL channel buffers: ~0.5-1 GiB per process
// (measured 0.5-0.9 GiB on H100 with recent CUDA/NCCL); 1 GiB is budgeted.
inline constexpr double kRuntimeReserveBytes = 1.0 * 1024 * 1024 * 1024;
// PyTorch caching-allocator fragmentation on top of live tensors: ~5-10% in Megatron/torchtitan
// memory snapshots; 7% of the dynamic (activation + workspace) memory is budgeted.
inline constexpr double kFragmentation = 0.07;
// An fp32 EMA copy of the weights (DeepSeek-V3 report, Sec. 3.3.3).
inline constexpr double kEmaBytes = 4;

// Bytes per parameter of the gradient buffer backward accumulates into: 4 (fp32 main_grad,
// Megatron-Core grad_reduce_in_fp32=True) or 2 (grad_reduce_in_fp32=False: the parameters'
// bf16; megatron/core/distributed/distributed_data_parallel.py, grad_dtype). Under FSDP2 it is
// the reduce_dtype, in which unsharded gradients accumulate and the reduce-scatter runs.
double GradBufferBytes(const ParallelPlan& plan);
// Bytes per parameter of the gradients a stage keeps for the whole step (sharded with zero >= 2):
// the buffer's, except under PyTorch FSDP2 (zero 3 with a PyTorch fusion profile), which casts
// each reduce-scatter output back to the dtype of the fp32 sharded parameter whatever the
// reduce_dtype (torch.distributed.fsdp fully_shard, foreach_reduce).
double KeptGradBytes(const ParallelPlan& plan);

// Optimizer state per parameter: the fp32 master copy and Adam's two moments in fp32 (12 bytes) or
// bf16 (8 bytes: Megatron-LM --use-precision-aware-optimizer --exp-avg-dtype bf16
// --exp-avg-sq-dtype bf16; DeepSeek-V3 report, Sec. 3.3.3 "Low-Precision Optimizer States").
inline double OptimizerStateBytes(MomentDtype moments) {
  return 4.0 + 2.0 * (moments == MomentDtype::kBf16 ? 2.0 : 4.0);
}

// What one stage holds, before the schedule multiplies activations.
struct StageMemoryInput {
  double dense_params = 0;   // on this GPU after tp (incl. embedding/output on first/last stage)
  double expert_params = 0;  // on this GPU after ep x etp
  double dense_shards = 1;   // ranks that shard dense optimizer state: dp x cp
  double expert_shards = 1;  // expert-data-parallel ranks: tp*cp*dp/(ep*etp)
  double act_per_micro_batch = 0;  // stored activations of all the stage's layers, one micro-batch
  double act_working = 0;          // one layer's full activations (recompute working set)
  double micro_batches_held = 1;   // from MicroBatchesHeld()
  double logits_bytes = 0;         // last stage: logits + loss workspace of one micro-batch
  double comm_buffer_bytes = 0;    // DP buckets, ZeRO-3 gathered layers, SP gather buffers
  bool duplicate_params =
      false;  // two copies of every parameter (DualPipe ranks are summed instead: RankMemoryInput)
  double optimizer_state_bytes = kOptimizerBytes;  // per parameter: OptimizerStateBytes
  double grad_bytes = kGradBytes;                  // per parameter: KeptGradBytes
  double accumulated_grad_bytes = kGradBytes;  // keep_gathered's unsharded ones: GradBufferBytes
  // ZeRO-3 with zero3_keep_gathered: the stage's bf16 weights stay gathered and its gradients
  // accumulate unsharded (in the reduce dtype) beside the shards for the whole step.
  bool keep_gathered = false;
  // ZeRO-3 keeping each unit gathered from its forward to its backward (kernel_recipe.h,
  // zero3_keep_after_forward): at the peak, after the forward, the stage's sharded weights are
  // also held unsharded in bf16 (the groups of one rank shard nothing and add nothing).
  bool keep_after_forward = false;
  // EMA of the weights on the GPU: fp32 bytes per parameter, sharded like the optimizer state
  // (0 without an EMA or with it in host memory).
  double ema_bytes_per_param = 0;
};

// Micro-batches whose activations stage `stage` holds at its peak (Narayanan et al. SC'21;
// Korthikanti et al. 2022 for interleaving): GPipe all m; 1F1B and zero-bubble min(pp - stage,
// m); interleaved the same x (1 + (pp-1)/(pp*vpp)); DualPipe pp + 1 (DeepSeek-V3 report, Table 2).
double MicroBatchesHeld(const ParallelPlan& plan, int64_t stage);

// The breakdown for one stage (zero: 0 none, 1 optimizer sharded, 2 + gradients, 3 + weights).
StageMemory ComputeStageMemory(const StageMemoryInput& in, int zero, int64_t stage);

}  // namespace paraplan
