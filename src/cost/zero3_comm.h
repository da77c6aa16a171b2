// ZeRO-3 (DeepSpeed stage 3, FSDP FULL_SHARD) communication of one pipeline stage for one
// micro-batch, unit by unit as the frameworks issue it: each layer's bf16 weights all-gathered
// before its forward and again before its backward, and each layer's gradient reduce-scattered
// right after its backward (Rajbhandari et al. SC'20 §5.3; Zhao et al. VLDB'23 §3.2-3.3: one
// FSDP unit per transformer block). Every micro-batch pays all three: gradients are sharded, so
// they are reduce-scattered each micro-batch rather than once per step. A message is one layer's
// local weights (1/tp of the layer), so at large dp its 1/dp shards are small and the
// collectives' latency counts (hardware/nccl_algorithms.h).
#pragma once

#include <array>
#include <cstdint>

#include "cost/cost_graph.h"
#include "cost/layer_cost.h"
#include "hardware/collective_cost.h"

namespace paraplan {

struct Zero3Comm {
  double gather_s = 0;         // one pass (forward or backward) of every unit's all-gather
  double gather_bwd_s = 0;     // the backward's gathers (DeepSpeed: recompute, re-gathers)
  double on_demand_fwd_s = 0;  // gathers not prefetched (zero3_fetch.h): all exposed
  double on_demand_bwd_s = 0;
  double reduce_scatter_s = 0;       // every unit's gradient reduce-scatter, one micro-batch
  double first_gather_s = 0;         // the largest unit's gather: waited for before the first layer
  double last_reduce_scatter_s = 0;  // the largest unit's reduce-scatter: after the last layer
  // FSDP2's copies on the compute stream (Fsdp2CopyBytes), or DeepSpeed's gradient-path copies
  // (DeepSpeedZero3GradCopyBytes, backward only), forward and backward passes of one micro-batch;
  // 0 where the framework gathers into the parameters' own storage and reduces in place.
  double copy_fwd_s = 0;
  double copy_bwd_s = 0;
};

// HBM bytes per parameter that PyTorch's FSDP2 (fully_shard, torchtitan) copies on the compute
// stream around each unit's collectives (torch/distributed/fsdp/_fully_shard/
// _fsdp_collectives.py): after every all-gather, `split_with_sizes_copy` moves the gathered
// bf16 buffer into the unsharded parameters (2 B read, 2 B written); before every
// reduce-scatter, `_chunk_cat` copies the unsharded bf16 gradients into the reduce-scatter input,
// widening them to the reduce dtype (2 B read, `reduce_bytes` written). The copy-in of the 1/dp
// shard before a gather and the cast of the 1/dp reduced shard after are left out (1/dp of
// these). Forward: one gather; backward: the re-gather and the reduce-scatter.
struct Fsdp2Copy {
  double forward = 0;   // bytes per parameter, forward pass
  double backward = 0;  // bytes per parameter, backward pass
};
// `gather_bytes`: bytes per gathered element (1 under torchao's float8 all-gather).
Fsdp2Copy Fsdp2CopyBytes(double reduce_bytes, double gather_bytes = kAct);

// The same for PyTorch FSDP1 (kernel_recipe.h, fsdp1): nothing copied out after a gather (the
// parameters view the gathered flat buffer); before each reduce-scatter autograd concatenates the
// bf16 gradients into the flat gradient (2 B read, 2 B written), and a `reduce_bytes` other than
// the parameters' 2 B adds FSDP's cast of that buffer (2 B read, `reduce_bytes` written).
Fsdp2Copy Fsdp1CopyBytes(double reduce_bytes);

// HBM bytes per parameter that DeepSpeed's ZeRO-3 moves on its gradient path in every
// micro-batch's backward (deepspeed/runtime/zero/stage3.py and runtime/comm/
// coalesced_collectives.py, the same at v0.6.2 and v0.16.6; contiguous_gradients and
// reduce_scatter default true in zero/config.py): __add_grad_to_ipg_bucket copies each gradient
// into the flat reduce bucket (`grad_bytes` read and written); __avg_scatter_grads ->
// reduce_scatter_coalesced interleaves the bucket's tensors rank by rank with torch.cat (read and
// written) and pre-divides that buffer in place with div_(world_size) (read and written) before
// the one reduce-scatter. 6 × `grad_bytes`. They run on reduce_and_partition_stream beside the
// backward; elementwise kernels whose grids cover every SM, they cost the compute beside them
// their whole time (overlap_sm.h's concurrent law with c = S), so they are charged on the pass
// as FSDP2's are. The 1/dp-sized copy of the reduced partition into the fp32 gradient and the
// coalesced gathers' torch.cat (only where a fetch gathers several parameters at once) are left
// out.
double DeepSpeedZero3GradCopyBytes(double grad_bytes);

// `counts` layers of each kind, `kinds` their costs (params_local, expert_params_local), plus one
// unit of `embed_params` (the stage's embedding and/or output layer, 0 for none). Dense weights
// over `dense`, expert weights over `expert`; gradients of `grad_bytes` bytes per parameter; the
// layers' dense weights gathered at `layer_weight_bytes` per element (1 under torchao's float8
// all-gather, cost/torchao_float8.h), the rest in bf16.
Zero3Comm Zero3StageComm(const std::array<int32_t, kLayerKinds>& counts,
                         const std::array<LayerCost, kLayerKinds>& kinds, double embed_params,
                         const GroupPlacement& dense, const GroupPlacement& expert,
                         double grad_bytes, const NetworkLinks& links,
                         double layer_weight_bytes = kAct);

// Exposed ZeRO-3 seconds of one micro-batch. With overlap (prefetch on a second stream) the
// forward waits for the first unit and for whatever gathering outlasts the forward compute; the
// backward's gathers and reduce-scatters share the group's links, so they queue behind each
// other under the backward compute, and the last reduce-scatter follows it. Gathers issued on
// demand (DeepSpeed's coordinator past its live-parameter limit, zero3_fetch.h) are exposed
// whole, the rest as above. Without overlap every collective is on the critical path.
struct Zero3Exposed {
  double forward_s = 0;
  double backward_s = 0;
};
Zero3Exposed Zero3ExposedSeconds(const Zero3Comm& comm, double forward_compute_s,
                                 double backward_compute_s, bool overlap);

// What the backward waits for whatever the overlap: the first unit's gather (none where the
// backward gathers nothing: FSDP2 without reshard after forward, kernel_recipe.h
// zero3_keep_after_forward) and the last unit's reduce-scatter.
double Zero3BackwardFloorSeconds(const Zero3Comm& comm);

}  // namespace paraplan
