#include "cost/memory_model.h"

#include <algorithm>

namespace paraplan {

double GradBufferBytes(const ParallelPlan& p) {
  return p.grad_reduce_in_fp32 ? kGradBytes : 2.0;
}

double KeptGradBytes(const ParallelPlan& p) {
  if (p.zero >= 3 && p.kernels.Pytorch()) return kGradBytes;
  return GradBufferBytes(p);
}

double MicroBatchesHeld(const ParallelPlan& p, int64_t stage) {
  const double m = static_cast<double>(std::max<int64_t>(p.MicroBatches(), 1));
  const double pp = static_cast<double>(p.pp);
  const double ahead = pp - static_cast<double>(stage);
  switch (p.schedule) {
    case Schedule::kGpipe:
      return m;
    case Schedule::kInterleaved: {
      const double vpp = static_cast<double>(std::max<int64_t>(p.vpp, 1));
      return std::min(ahead * (1.0 + (pp - 1.0) / (pp * vpp)), m);
    }
    case Schedule::kDualPipe:
      return std::min(pp + 1.0, m);
    case Schedule::k1F1B:
    case Schedule::kZeroBubble:
      break;
  }
  return std::min(ahead, m);
}

StageMemory ComputeStageMemory(const StageMemoryInput& in, int zero, int64_t stage) {
  StageMemory out;
  out.stage = stage;
  const double copies = in.duplicate_params ? 2.0 : 1.0;
  auto sharded = [&](double bytes_per_param, bool shard) {
    const double d = shard ? in.dense_shards : 1.0;
    const double e = shard ? in.expert_shards : 1.0;
    return bytes_per_param * (in.dense_params / d + in.expert_params / e);
  };
  out.weights_bytes = copies * sharded(kWeightBytes, zero >= 3);
  out.grads_bytes = copies * sharded(in.grad_bytes, zero >= 2);
  out.ema_bytes = in.ema_bytes_per_param > 0 ? sharded(in.ema_bytes_per_param, zero >= 1) : 0.0;
  out.optimizer_bytes = sharded(in.optimizer_state_bytes, zero >= 1) + out.ema_bytes;
  // What FSDP holds unsharded beside the shards: only what a group of more than one rank shards
  // (a group of one gathers nothing, and its parameters' gradients are the kept ones above).
  const double unsharded = (in.dense_shards > 1 ? in.dense_params : 0.0) +
                           (in.expert_shards > 1 ? in.expert_params : 0.0);
  if (zero >= 3 && in.keep_gathered) {
    out.weights_bytes += copies * kWeightBytes * unsharded;
    out.grads_bytes += copies * in.accumulated_grad_bytes * unsharded;
  }
  if (zero >= 3 && in.keep_after_forward) out.weights_bytes += copies * kWeightBytes * unsharded;
  out.activations_bytes = in.act_per_micro_batch * in.micro_batches_held + in.act_working;
  const double dynamic = out.activations_bytes + in.logits_bytes + in.comm_buffer_bytes;
  out.logits_bytes = in.logits_bytes;
  out.buffers_bytes = in.comm_buffer_bytes;
  out.reserve_bytes = kRuntimeReserveBytes;
  out.fragmentation_bytes = kFragmentation * dynamic;
  out.other_bytes =
      out.logits_bytes + out.buffers_bytes + out.reserve_bytes + out.fragmentation_bytes;
  return out;
}

}  // namespace paraplan
