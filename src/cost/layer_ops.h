// The per-op breakdown of each kind of transformer layer a plan runs (explain's "layer ops"
// table): every GEMM, the core attention and the element-wise ops of one layer, one micro-batch,
// one GPU, with FLOPs, HBM bytes, kernels, forward and backward seconds and what bounds each.
// The rows are those ComputeLayerCost sums (cost/layer_cost.h), so they add up to its times.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost/layer_cost.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/parallel_plan.h"

namespace paraplan {

enum class OpBound { kCompute, kMemory, kLaunch };
const char* ToString(OpBound bound);

// What limits a row's forward: the largest of its compute, memory and launch seconds.
OpBound BoundOf(const LayerOpRow& row);

struct LayerOpsTable {
  std::string kind;    // "dense", "dense sliding", "moe", "moe sliding"
  int64_t layers = 0;  // layers of this kind in the model
  std::vector<LayerOpRow> rows;
  LayerCost total;  // the layer's cost (rows sum to total.fwd_s and total.bwd_s)
};

std::vector<LayerOpsTable> ComputeLayerOps(const ModelSpec& model, const Cluster& cluster,
                                           const ParallelPlan& plan);

}  // namespace paraplan
