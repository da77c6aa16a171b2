#include "cost/zero3_comm.h"

#include <algorithm>

namespace paraplan {
namespace {

constexpr double kWeightBytes = 2.0;  // bf16 weights are gathered

struct UnitComm {
  double gather_s = 0, reduce_scatter_s = 0;
};

UnitComm Unit(double dense_params, double expert_params, const GroupPlacement& dense,
              const GroupPlacement& expert, double grad_bytes, const NetworkLinks& links,
              double dense_weight_bytes = kWeightBytes) {
  UnitComm u;
  if (dense.size > 1 && dense_params > 0) {
    u.gather_s += CollectiveSeconds(CollectiveOp::kAllGather, dense_params * dense_weight_bytes,
                                    dense, links);
    u.reduce_scatter_s +=
        CollectiveSeconds(CollectiveOp::kReduceScatter, dense_params * grad_bytes, dense, links);
  }
  if (expert.size > 1 && expert_params > 0) {
    u.gather_s +=
        CollectiveSeconds(CollectiveOp::kAllGather, expert_params * kWeightBytes, expert, links);
    u.reduce_scatter_s +=
        CollectiveSeconds(CollectiveOp::kReduceScatter, expert_params * grad_bytes, expert, links);
  }
  return u;
}

}  // namespace

Fsdp2Copy Fsdp2CopyBytes(double reduce_bytes, double gather_bytes) {
  const double copy_out = 2 * gather_bytes;            // gathered buffer -> unsharded parameters
  const double copy_in = kWeightBytes + reduce_bytes;  // bf16 gradients -> reduce-scatter input
  return {copy_out, copy_out + copy_in};
}

Fsdp2Copy Fsdp1CopyBytes(double reduce_bytes) {
  const double concat = 2 * kWeightBytes;  // the views' gradients -> the flat gradient
  const double cast = reduce_bytes != kWeightBytes ? kWeightBytes + reduce_bytes : 0.0;
  return {0.0, concat + cast};
}

double DeepSpeedZero3GradCopyBytes(double grad_bytes) {
  const double bucket_copy = 2 * grad_bytes;  // copy_ into __ipg_bucket_flat_buffer
  const double interleave = 2 * grad_bytes;   // torch.cat of the rank-interleaved partitions
  const double pre_divide = 2 * grad_bytes;   // div_(world_sz) in place
  return bucket_copy + interleave + pre_divide;
}

Zero3Comm Zero3StageComm(const std::array<int32_t, kLayerKinds>& counts,
                         const std::array<LayerCost, kLayerKinds>& kinds, double embed_params,
                         const GroupPlacement& dense, const GroupPlacement& expert,
                         double grad_bytes, const NetworkLinks& links, double layer_weight_bytes) {
  Zero3Comm c;
  auto add = [&c](const UnitComm& u, double n) {
    c.gather_s += n * u.gather_s;
    c.reduce_scatter_s += n * u.reduce_scatter_s;
    c.first_gather_s = std::max(c.first_gather_s, u.gather_s);
    c.last_reduce_scatter_s = std::max(c.last_reduce_scatter_s, u.reduce_scatter_s);
  };
  for (int k = 0; k < kLayerKinds; ++k) {
    if (counts[k] == 0) continue;
    add(Unit(kinds[k].params_local, kinds[k].expert_params_local, dense, expert, grad_bytes, links,
             layer_weight_bytes),
        counts[k]);
  }
  if (embed_params > 0) add(Unit(embed_params, 0, dense, expert, grad_bytes, links), 1.0);
  c.gather_bwd_s = c.gather_s;
  return c;
}

Zero3Exposed Zero3ExposedSeconds(const Zero3Comm& comm, double forward_compute_s,
                                 double backward_compute_s, bool overlap) {
  Zero3Exposed e;
  const double backward_comm = comm.gather_bwd_s + comm.reduce_scatter_s;
  if (!overlap) {
    e.forward_s = comm.gather_s;
    e.backward_s = backward_comm;
    return e;
  }
  e.forward_s =
      comm.on_demand_fwd_s +
      std::max(comm.first_gather_s, comm.gather_s - comm.on_demand_fwd_s - forward_compute_s);
  e.backward_s =
      comm.on_demand_bwd_s + std::max(Zero3BackwardFloorSeconds(comm),
                                      backward_comm - comm.on_demand_bwd_s - backward_compute_s);
  return e;
}

double Zero3BackwardFloorSeconds(const Zero3Comm& comm) {
  return (comm.gather_bwd_s > 0 ? comm.first_gather_s : 0.0) + comm.last_reduce_scatter_s;
}

}  // namespace paraplan
