// ZeRO-3 / FSDP collectives of one micro-batch as each framework issues them: how many, of what
// size and in what order. paraplan's step cost (zero3_comm.h) gathers one unit per layer, which
// is how FSDP1 and FSDP2 issue them; DeepSpeed packs whole parameters into prefetch buckets and
// gradients into reduce buckets, so its call count and sizes differ. `explain` lists all three.
//
// Sources (read at the versions named; each rule below cites its code):
//  - DeepSpeed ZeRO-3 (deepspeed/runtime/zero/config.py DeepSpeedZeroConfig, v0.16):
//    stage3_prefetch_bucket_size 5e7 elements, stage3_param_persistence_threshold 1e5 elements,
//    reduce_bucket_size 5e8 elements. partitioned_param_coordinator.py fetch_sub_module: once the
//    module trace is complete, each fetch pops whole parameters off the trace queue until at
//    least prefetch_bucket_size elements are in flight and gathers them in one coalesced
//    all-gather (partition_parameters.py all_gather_coalesced: one flat buffer); parameters
//    under the persistence threshold stay gathered (never fetched). stage3.py
//    reduce_independent_p_g_buckets_and_remove_grads: a gradient that would overflow
//    reduce_bucket_size flushes the bucket first, one reduce-scatter per bucket
//    (comm/coalesced_collectives.py reduce_scatter_coalesced), every micro-batch. Each parameter
//    is padded to a multiple of the world size (partition size = ceil(numel / N)). Gradients
//    travel in engine.py's communication_data_type: bf16 under bf16 training.
//  - PyTorch FSDP1 (torch/distributed/fsdp, torch 2.4): one FlatParameter per wrapped unit,
//    padded to a multiple of N (flat_param.py); one all-gather per unit before its forward and
//    again before its backward, except the root, which _runtime_utils.py _post_forward does
//    not free under FULL_SHARD; one reduce-scatter per unit after its backward; the default
//    BackwardPrefetch.BACKWARD_PRE issues the next unit's gather before the current unit's
//    reduce-scatter. Gradients in the parameters' dtype unless MixedPrecision.reduce_dtype.
//  - PyTorch FSDP2 (torch/distributed/fsdp/_fully_shard, torch 2.6): each fully_shard module's
//    parameters gathered together (_fsdp_collectives.py foreach_all_gather: one all-gather per
//    module), each parameter chunked on dim 0 (padded to ceil(rows / N) rows per rank); one
//    reduce-scatter per module (foreach_reduce); the root keeps its parameters after forward
//    (fully_shard's reshard_after_forward note), and torchtitan (parallelize_llama.py) keeps the
//    last block's too. torchtitan's mixed_precision_reduce defaults to float32.
#pragma once

#include <cstdint>
#include <vector>

#include "hardware/collective_cost.h"

namespace paraplan {

enum class Zero3Issuer { kDeepSpeed, kFsdp1, kFsdp2 };
const char* ToString(Zero3Issuer issuer);

struct DeepSpeedZero3Settings {
  double prefetch_bucket_elements = 5e7;  // stage3_prefetch_bucket_size
  double persistence_threshold = 1e5;     // stage3_param_persistence_threshold
  double reduce_bucket_elements = 5e8;    // reduce_bucket_size
};

// One parameter tensor, in forward order; `unit` numbers the wrapped unit (FSDP) it belongs to,
// 0 for the root (embedding, final norm, output layer), then 1, 2, ... one per block.
struct Zero3Param {
  int64_t unit = 0;
  double elements = 0;
  double rows = 0;  // dim-0 size (FSDP2 shards on it); 0 = a 1-D tensor of `elements`
};

struct Zero3Call {
  CollectiveOp op = CollectiveOp::kAllGather;
  bool forward = true;
  double bytes = 0;  // nccl-tests size: the gathered output, the reduce-scatter input
};

struct Zero3Schedule {
  std::vector<Zero3Call> calls;  // one micro-batch, in issue order
  int64_t all_gathers = 0, reduce_scatters = 0;
  double gather_bytes = 0, reduce_scatter_bytes = 0;  // summed over the calls
};

// The calls of one micro-batch over `ranks` ranks: weights gathered in `weight_bytes` per element,
// gradients reduce-scattered in `grad_bytes`. `params` in forward order, units contiguous.
Zero3Schedule Zero3Collectives(Zero3Issuer issuer, const std::vector<Zero3Param>& params,
                               int64_t ranks, double weight_bytes, double grad_bytes,
                               const DeepSpeedZero3Settings& deepspeed = {});

}  // namespace paraplan
