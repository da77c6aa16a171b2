#include "cost/layer_ops.h"

#include <array>

#include "cost/cost_graph.h"
#include "hardware/collective_cost.h"

namespace paraplan {

const char* ToString(OpBound bound) {
  switch (bound) {
    case OpBound::kMemory:
      return "memory";
    case OpBound::kLaunch:
      return "launch";
    case OpBound::kCompute:
      break;
  }
  return "compute";
}

OpBound BoundOf(const LayerOpRow& row) {
  if (row.launch_s >= row.compute_s && row.launch_s >= row.memory_s) return OpBound::kLaunch;
  if (row.memory_s >= row.compute_s) return OpBound::kMemory;
  return OpBound::kCompute;
}

std::vector<LayerOpsTable> ComputeLayerOps(const ModelSpec& model, const Cluster& cluster,
                                           const ParallelPlan& plan) {
  static const std::array<const char*, kLayerKinds> kNames = {"dense", "moe", "dense sliding",
                                                              "moe sliding"};
  const CostGraph dims = BuildCostGraph(model);
  const PlanShape shape = MakePlanShape(dims, plan, cluster);
  const NetworkLinks links = ResolveNetworkLinks(cluster);
  const auto counts = KindCounts(dims, 0, dims.layers);
  std::vector<LayerOpsTable> out;
  for (int kind = 0; kind < kLayerKinds; ++kind) {
    if (counts[static_cast<size_t>(kind)] == 0) continue;
    LayerOpsTable table;
    table.kind = kNames[static_cast<size_t>(kind)];
    table.layers = counts[static_cast<size_t>(kind)];
    table.total = ComputeLayerCost(dims, kind, shape, cluster, links, &table.rows);
    out.push_back(std::move(table));
  }
  return out;
}

}  // namespace paraplan
