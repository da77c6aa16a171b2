#include "plan/placement.h"

#include <algorithm>

namespace paraplan {

namespace {

// The product of two groups (a x b, e.g. dp x cp): contiguous when the two are adjacent in the
// order; otherwise approximated by a group with the same outer extent.
GroupPlacement ProductGroup(int64_t a, int64_t a_stride, int64_t b, int64_t b_stride,
                            const Cluster& cluster) {
  if (b == 1) return PlaceGroup(a, a_stride, cluster);
  if (a == 1) return PlaceGroup(b, b_stride, cluster);
  const bool a_inner = a_stride < b_stride;
  const int64_t inner_stride = a_inner ? a_stride : b_stride;
  const int64_t inner_size = a_inner ? a : b;
  const int64_t outer_stride = a_inner ? b_stride : a_stride;
  if (outer_stride == inner_stride * inner_size) return PlaceGroup(a * b, inner_stride, cluster);
  const int64_t extent = std::max(a_stride * a, b_stride * b);
  return PlaceGroup(a * b, std::max<int64_t>(extent / (a * b), 1), cluster);
}

}  // namespace

PlanPlacement PlacePlan(const ParallelPlan& p, const Cluster& cluster) {
  // Dense layout: tp, cp, dp, pp in the placement order (ep is a sub-group of dp ranks).
  PlanPlacement out;
  int64_t stride = 1;
  int64_t dp_stride = 1, cp_stride = 1, tp_stride = 1;
  for (ParallelDim d : p.placement) {
    switch (d) {
      case ParallelDim::kTp:
        out.tp = PlaceGroup(p.tp, stride, cluster);
        tp_stride = stride;
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
  out.dp_cp = ProductGroup(p.dp, dp_stride, p.cp, cp_stride, cluster);
  out.tp_cp = ProductGroup(p.tp, tp_stride, p.cp, cp_stride, cluster);
  // Expert layout (Megatron's expert rank generator): etp, ep, edp, pp in the same order, with
  // tp -> etp, ep -> ep, and cp folded into edp.
  const int64_t dense = p.tp * p.cp * p.dp;
  const int64_t edp = std::max<int64_t>(dense / std::max<int64_t>(p.ep * p.etp, 1), 1);
  stride = 1;
  int64_t etp_stride = 1, ep_stride = 1;
  for (ParallelDim d : p.placement) {
    if (d == ParallelDim::kTp) {
      out.etp = PlaceGroup(p.etp, stride, cluster);
      etp_stride = stride;
      stride *= p.etp;
    } else if (d == ParallelDim::kEp) {
      out.ep = PlaceGroup(p.ep, stride, cluster);
      ep_stride = stride;
      stride *= p.ep;
    } else if (d == ParallelDim::kDp) {
      out.edp = PlaceGroup(edp, stride, cluster);
      stride *= edp;
    }
  }
  out.etp_ep = ProductGroup(p.etp, etp_stride, p.ep, ep_stride, cluster);
  return out;
}

}  // namespace paraplan
