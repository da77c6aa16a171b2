// The element-wise passes Megatron-Core's DDP and mixed-precision optimizer run once per step
// beside the Adam kernel (whose traffic is dp_comm.cpp's OptimizerTrafficBytes: fp32 master,
// gradient and moments read, master and moments written, and the bf16 copy's write). Read in
// NVIDIA/Megatron-LM at d98e8a6 (2026-08-22); the same passes since the 2021 contiguous
// gradient buffer:
//  - zero_grad_buffer (megatron/core/distributed/distributed_data_parallel.py, "Needs to be
//    called at the beginning of each training iteration"): ParamAndGradBuffer.reset ->
//    grad_data.zero_(), a memset of the stage's whole local gradient buffer (all its parameters,
//    not the optimizer's shard) in the buffer's dtype: 2 B (bf16) or 4 B (grad_reduce_in_fp32).
//  - _copy_model_grads_to_main_grads (megatron/core/optimizer/distrib_optimizer.py):
//    shard_main_param.grad = shard_model_grad.float(), per shard tensor: a bf16 buffer is cast
//    to an fp32 copy (read 2 B, write 4 B per shard element); an fp32 buffer's .float() is the
//    tensor itself (no pass).
//  - get_grad_norm_fp32 (megatron/core/optimizer/clip_grads.py): multi_tensor_l2norm over the
//    shard's fp32 main gradients (read 4 B), then an all-reduce of one number (latency only,
//    not charged). The clip's multi_tensor_scale runs only when the norm exceeds clip_grad, which
//    depends on the data: not charged.
//  - _copy_main_params_to_model_params: shard_model_param.data.copy_(shard_main_param) per
//    shard tensor, a separate pass after the Adam kernel: it reads the fp32 master again (4 B;
//    its 2 B bf16 write is counted in OptimizerTrafficBytes).
// Under the precision-aware optimizer (optimizer_moments=bf16: --use-precision-aware-optimizer)
// the gradients are handed over as they are (decoupled_grad) and TransformerEngine's FusedAdam
// writes the bf16 parameters itself: no cast, no copy pass; the norm reads the buffer's dtype.
// Host work (the per-tensor Python loops, the norm's .item()) is not charged here.
#pragma once

#include "hardware/cluster.h"
#include "plan/memory_recipe.h"

namespace paraplan {

struct MegatronStepPasses {
  double zero_grad_s = 0;   // memset of the local gradient buffer
  double grad_cast_s = 0;   // bf16 -> fp32 main gradient copy of the shard
  double grad_norm_s = 0;   // multi_tensor_l2norm read of the shard's gradients
  double param_copy_s = 0;  // fp32 master re-read by the master -> bf16 copy
  double Total() const { return zero_grad_s + grad_cast_s + grad_norm_s + param_copy_s; }
};

// `local_params`: the stage's parameters on one GPU (its gradient buffer); `shard_params`: the
// optimizer's share of them on this GPU held on the GPU (after ZeRO-1 sharding and offload);
// `grad_bytes`: the buffer's element size (memory_model.h GradBufferBytes).
MegatronStepPasses MegatronStepPassesOf(const Cluster& cluster, double local_params,
                                        double shard_params, double grad_bytes,
                                        MomentDtype moments);

}  // namespace paraplan
