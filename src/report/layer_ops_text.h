// explain's per-op table of each layer kind (cost/layer_ops.h): text for people, JSON for tools.
#pragma once

#include <string>

#include "core/json.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// "Layer ops" tables: op, GFLOP, MB moved, kernels, forward and backward ms, bound.
std::string LayerOpsText(const ModelSpec& model, const Cluster& cluster, const ParallelPlan& plan);

// [{"kind", "layers", "fwd_s", "bwd_s", "ops": [{"op", "flops", "bytes", "kernels", "fwd_s",
// "bwd_s", "bound"}]}] in SI units (FLOPs, bytes, seconds).
Json LayerOpsJson(const ModelSpec& model, const Cluster& cluster, const ParallelPlan& plan);

}  // namespace paraplan
