// DeepSpeed ZeRO-3's parameter coordinator for one transformer layer: which weight gathers it
// issues, and which of them it cannot prefetch. paraplan's unit model (zero3_comm.h) gathers
// every layer once per pass with its gathers prefetched under the compute, which is what FSDP
// does; DeepSpeed fetches module by module and its two limits change both the count and the
// overlap (deepspeed/runtime/zero/partitioned_param_coordinator.py, read at v0.6.2 and v0.16.0):
//  - fetch_sub_module: after waiting for the current module's parameters it prefetches the next
//    ones in the recorded trace, whole parameters until `numel_prefetching` reaches
//    min(stage3_max_live_parameters − n_available, stage3_prefetch_bucket_size); n_available
//    counts every gathered or in-flight parameter still held (the current module's included).
//    When the budget is not positive nothing is prefetched and the next module's gather is
//    issued on demand, with the compute stream waiting for it.
//  - __params_to_release: after a module runs, its parameters are released unless they are used
//    again before more than stage3_max_reuse_distance elements of the trace are traversed
//    (v0.6.2 `>`, v0.16 `>=`); a released parameter used again is gathered again. Under full
//    activation checkpointing a layer is recomputed and then run backward, so a weight used in
//    the recompute is kept for its backward only if the layer's later modules are within that
//    distance.
// Parameters of at most stage3_param_persistence_threshold elements stay gathered (never
// fetched). Defaults (zero/config.py, v0.6.2 constants.py and v0.16 DeepSpeedZeroConfig): max live
// 1e9, max reuse distance 1e9, prefetch bucket 5e7, persistence threshold 1e5 elements.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cost/cost_graph.h"
#include "cost/zero3_comm.h"
#include "plan/parallel_plan.h"

namespace paraplan {

struct DeepSpeedFetchSettings {
  double max_live = kDeepSpeedMaxLiveParams;      // stage3_max_live_parameters
  double max_reuse = kDeepSpeedMaxReuseDistance;  // stage3_max_reuse_distance
  double prefetch_bucket = 5e7;                   // stage3_prefetch_bucket_size
  double persistence = 1e5;                       // stage3_param_persistence_threshold
};

// One weight gather of a layer's steady state.
struct FetchGather {
  double elements = 0;
  bool forward = true;     // in the forward pass (else in the backward, recompute included)
  bool on_demand = false;  // not prefetched: the compute waits for all of it
};

// The gathers of a stack of `layers` identical layers whose modules hold `module_elements`
// weight elements each, in forward order; `full_recompute`: each layer's forward is rerun right
// before its backward (activation checkpointing per layer). The last layers' forward weights
// can stay gathered into the backward (within the reuse distance), as DeepSpeed keeps them.
std::vector<FetchGather> DeepSpeedStackFetch(const std::vector<double>& module_elements,
                                             int64_t layers, const DeepSpeedFetchSettings& settings,
                                             bool full_recompute);

// A layer kind's modules as DeepSpeed fetches them: the graph's dense GEMMs in forward order,
// weight elements on one GPU (1/tp of a split one). Expert weights are left out.
std::vector<double> DeepSpeedLayerModules(const CostGraph& d, int kind, int64_t tp);

// The plan's coordinator settings (kernel_recipe.h: an unset one takes DeepSpeed's default).
DeepSpeedFetchSettings DeepSpeedFetchSettingsOf(const KernelRecipe& kernels);

// Zero3StageComm's figures as DeepSpeed issues them: each layer kind's dense weights gathered
// module by module (the graph's GEMMs, 1/tp of a split one), counted and split between
// prefetched and on-demand by DeepSpeedLayerFetch, each gather a bf16 all-gather of the padded
// module over `dense`; under full recompute the backward holds the recompute's gathers and the
// re-gathers. Expert weights, the gradients' reduce-scatters and the embedding unit are costed
// as Zero3StageComm costs them.
Zero3Comm DeepSpeedStageComm(const CostGraph& d, const ParallelPlan& p,
                             const std::array<int32_t, kLayerKinds>& counts,
                             const std::array<LayerCost, kLayerKinds>& kinds, double embed_params,
                             const GroupPlacement& dense, const GroupPlacement& expert,
                             double grad_bytes, const NetworkLinks& links);

}  // namespace paraplan
