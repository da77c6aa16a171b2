#include "cost/fp8_amax.h"

#include "cost/elementwise_cost.h"
#include "hardware/group_placement.h"

namespace paraplan {

double Fp8AmaxSeconds(const Cluster& cluster, const NetworkLinks& links, const ParallelPlan& plan,
                      const PlanShape& shape, double chunk_layers) {
  if (plan.precision != Precision::kFp8 || plan.kernels.Pytorch() || shape.dualpipe) return 0.0;
  double seconds = kAmaxUpdateKernels * LaunchSeconds(cluster, shape);
  const int64_t ranks = plan.tp * plan.cp * plan.dp;
  if (ranks > 1 && chunk_layers > 0) {
    const GroupPlacement group = PlaceGroup(ranks, shape.groups.tp.stride, cluster);
    seconds += CollectiveSeconds(CollectiveOp::kAllReduce, 4.0 * kAmaxPerLayerFwd * chunk_layers,
                                 group, links);
  }
  return seconds;
}

}  // namespace paraplan
