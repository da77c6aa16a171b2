#include "cost/megatron_step_passes.h"

#include "cost/compute_cost.h"

namespace paraplan {

MegatronStepPasses MegatronStepPassesOf(const Cluster& c, double local_params, double shard_params,
                                        double grad_bytes, MomentDtype moments) {
  MegatronStepPasses out;
  if (local_params > 0) out.zero_grad_s = MemoryBoundSeconds(c, local_params * grad_bytes);
  if (shard_params <= 0) return out;
  const bool precision_aware = moments == MomentDtype::kBf16;
  constexpr double kFp32 = 4.0;
  if (!precision_aware && grad_bytes < kFp32) {
    out.grad_cast_s = MemoryBoundSeconds(c, shard_params * (grad_bytes + kFp32));
  }
  out.grad_norm_s = MemoryBoundSeconds(c, shard_params * (precision_aware ? grad_bytes : kFp32));
  if (!precision_aware) out.param_copy_s = MemoryBoundSeconds(c, shard_params * kFp32);
  return out;
}

}  // namespace paraplan
