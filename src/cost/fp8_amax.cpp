#include "cost/fp8_amax.h"

#include "cost/elementwise_cost.h"
#include "hardware/group_placement.h"

namespace paraplan {

double Fp8AmaxSeconds(const Cluster& cluster, const NetworkLinks& links, const ParallelPlan& plan,
                      const PlanShape& shape, double chunk_layers) {
  if (plan.precision != Precision::kFp8 || plan.kernels.Pytorch() || shape.dualpipe) return 0.0;
  if (plan.kernels.fp8_recipe == Fp8Recipe::kMxfp8) return 0.0;  // scales inside each cast
  if (plan.kernels.fp8_recipe == Fp8Recipe::kTensorwise) {
    // No history to reduce; a sequence-parallel cast all-reduces its own amax over TP first.
    if (plan.tp < 2 || !plan.sequence_parallel || chunk_layers <= 0) return 0.0;
    return kTensorwiseAmaxReductionsPerLayer * chunk_layers *
           CollectiveSeconds(CollectiveOp::kAllReduce, 4.0, shape.groups.tp, links);
  }
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
