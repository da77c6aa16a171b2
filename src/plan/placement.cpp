#include "plan/placement.h"

#include <algorithm>

namespace paraplan {

namespace {

// dp x cp: contiguous when the two are adjacent in the order; otherwise approximated by a group
// with the same outer extent.
GroupPlacement DenseGradientGroup(const ParallelPlan& p, int64_t dp_stride, int64_t cp_stride,
                                  const Cluster& cluster) {
  if (p.cp == 1) return PlaceGroup(p.dp, dp_stride, cluster);
  if (p.dp == 1) return PlaceGroup(p.cp, cp_stride, cluster);
  const bool dp_inner = dp_stride < cp_stride;
  const int64_t inner_stride = dp_inner ? dp_stride : cp_stride;
  const int64_t inner_size = dp_inner ? p.dp : p.cp;
  const int64_t outer_stride = dp_inner ? cp_stride : dp_stride;
  if (outer_stride == inner_stride * inner_size) {
    return PlaceGroup(p.dp * p.cp, inner_stride, cluster);
  }
  const int64_t extent = std::max(dp_stride * p.dp, cp_stride * p.cp);
  return PlaceGroup(p.dp * p.cp, std::max<int64_t>(extent / (p.dp * p.cp), 1), cluster);
}

}  // namespace

PlanPlacement PlacePlan(const ParallelPlan& p, const Cluster& cluster) {
  // Dense layout: tp, cp, dp, pp in the placement order (ep is a sub-group of dp ranks).
  PlanPlacement out;
  int64_t stride = 1;
  int64_t dp_stride = 1, cp_stride = 1;
  for (ParallelDim d : p.placement) {
    switch (d) {
      case ParallelDim::kTp:
        out.tp = PlaceGroup(p.tp, stride, cluster);
        stride *= p.tp;
        break;
      case ParallelDim::kCp:
        out.cp = PlaceGroup(p.cp, stride, cluster);
        cp_stride = stride;
        stride *= p.cp;
        break;
      case ParallelDim::kDp:
        out.dp = PlaceGroup(p.dp, stride, cluster);
        dp_stride = stride;
        stride *= p.dp;
        break;
      case ParallelDim::kPp:
        out.pp = PlaceGroup(p.pp, stride, cluster);
        stride *= p.pp;
        break;
      case ParallelDim::kEp:
        break;
    }
  }
  out.dp_cp = DenseGradientGroup(p, dp_stride, cp_stride, cluster);
  // Expert layout (Megatron's expert rank generator): etp, ep, edp, pp in the same order, with
  // tp -> etp, ep -> ep, and cp folded into edp.
  const int64_t dense = p.tp * p.cp * p.dp;
  const int64_t edp = std::max<int64_t>(dense / std::max<int64_t>(p.ep * p.etp, 1), 1);
  stride = 1;
  for (ParallelDim d : p.placement) {
    if (d == ParallelDim::kTp) {
      out.etp = PlaceGroup(p.etp, stride, cluster);
      stride *= p.etp;
    } else if (d == ParallelDim::kEp) {
      out.ep = PlaceGroup(p.ep, stride, cluster);
      stride *= p.ep;
    } else if (d == ParallelDim::kDp) {
      out.edp = PlaceGroup(edp, stride, cluster);
      stride *= edp;
    }
  }
  return out;
}

}  // namespace paraplan
