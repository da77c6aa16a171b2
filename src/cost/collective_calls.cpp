#include "cost/collective_calls.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "cost/memory_model.h"
#include "cost/moe_dispatch.h"

namespace paraplan {
namespace {

constexpr double kAct = 2.0;  // bf16 activations and gathered weights

double CommBytes(CommDtype t) {
  return t == CommDtype::kFp32 ? 4.0 : t == CommDtype::kBf16 ? 2.0 : 1.0;
}

struct Describer {
  const Cluster& cluster;
  const NetworkLinks& links;
  std::vector<CollectiveCall> out;

  // The row's group, op, placement and bytes; the caller sets how it runs and its time.
  CollectiveCall Row(const char* group, const char* what, CollectiveOp op, double bytes,
                     const GroupPlacement& g) const {
    CollectiveCall c;
    c.group = group;
    c.what = what;
    c.op = ToString(op);
    c.ranks = g.size;
    c.per_domain = g.tier == 0 ? g.size : g.members[0];
    const int tier = std::min<int>(g.tier, static_cast<int>(cluster.network.size()) - 1);
    c.tier = tier >= 0 ? cluster.network[static_cast<size_t>(tier)].name : "-";
    c.bytes = bytes;
    return c;
  }

  void Add(const char* group, const char* what, CollectiveOp op, double bytes,
           const GroupPlacement& g) {
    if (g.size < 2 || bytes <= 0) return;
    CollectiveCall c = Row(group, what, op, bytes, g);
    const CollectiveChoice choice = ChooseCollective(op, bytes, g, links);
    const bool p2p = op == CollectiveOp::kAllToAll || op == CollectiveOp::kSendRecv;
    c.algorithm = choice.nccl ? ToString(choice.algorithm) : (p2p ? "p2p" : "profile fit");
    c.protocol = choice.nccl ? ToString(choice.protocol) : "-";
    c.seconds = choice.seconds;
    out.push_back(std::move(c));
  }

  // One pass of DualPipe's or DeepEP's two-hop dispatch / combine (cost/moe_dispatch.h): the
  // bytes one GPU sends on both legs, the time of the pass.
  void AddTwoHop(const char* what, const TwoHopTraffic& traffic, const GroupPlacement& g) {
    const double bytes = traffic.network_bytes + traffic.nvlink_bytes;
    if (g.size < 2 || bytes <= 0) return;
    CollectiveCall c = Row("ep", what, CollectiveOp::kAllToAll, bytes, g);
    c.algorithm = "two-hop";
    c.protocol = "-";
    c.seconds = TwoHopSeconds(traffic, g, links);
    out.push_back(std::move(c));
  }
};

// Dense parameters of the first stage's layers on one GPU, and its largest layer's.
void FirstStageParams(const CostGraph& d, const PlanEvaluation& e, double* dense, double* layer) {
  *dense = 0;
  *layer = 0;
  if (e.layers.size() == 0) return;
  const auto counts = KindCounts(d, e.begins[0], e.begins[0] + e.layers[0]);
  for (int k = 0; k < kLayerKinds; ++k) {
    if (counts[k] == 0) continue;
    *dense += counts[k] * e.kinds[k].params_local;
    *layer = std::max(*layer, e.kinds[k].params_local);
  }
}

void DataParallelCalls(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                       Describer& w) {
  const GroupPlacement& g = e.shape.groups.dp_cp;
  double dense = 0, layer = 0;
  FirstStageParams(d, e, &dense, &layer);
  const double dtype = CommBytes(DpGradCommDtype(p));
  if (p.zero == 3 && !p.zero3_keep_gathered) {
    w.Add("dp", "ZeRO-3 weights, per layer, fwd and bwd", CollectiveOp::kAllGather, layer * kAct,
          g);
    w.Add("dp", "ZeRO-3 gradient, per layer", CollectiveOp::kReduceScatter, layer * dtype, g);
    return;
  }
  const double bucket = std::max(DpBucketBytes(p), 1.0);
  const double grads = dense * dtype;
  const double n = std::max(std::ceil(grads / bucket), 1.0);
  w.Add("dp", "gradient bucket",
        p.zero == 0 ? CollectiveOp::kAllReduce : CollectiveOp::kReduceScatter, grads / n, g);
  if (p.zero >= 1) {
    const double weights = dense * kAct;
    const double m = std::max(std::ceil(weights / bucket), 1.0);
    w.Add("dp", "parameter all-gather bucket", CollectiveOp::kAllGather, weights / m, g);
  }
}

}  // namespace

std::vector<CollectiveCall> DescribeCollectives(const CostGraph& d, const Cluster& cluster,
                                                const NetworkLinks& links, const ParallelPlan& p,
                                                const PlanEvaluation& e) {
  Describer w{cluster, links, {}};
  if (cluster.network.empty()) return w.out;
  const PlanShape& s = e.shape;
  const double act = kAct * s.tokens * d.hidden;
  if (p.sequence_parallel) {
    w.Add("tp", "per layer, 2 per pass (SP)", CollectiveOp::kAllGather, act, s.groups.tp);
    w.Add("tp", "per layer, 2 per pass (SP)", CollectiveOp::kReduceScatter, act, s.groups.tp);
  } else {
    w.Add("tp", "per layer, 2 per pass", CollectiveOp::kAllReduce, act, s.groups.tp);
  }
  const double kv_bytes = kAct * s.tokens * AttentionKvHeads(d, s) * (d.qk_head_dim + d.v_head_dim);
  w.Add("cp", "K/V ring step, cp-1 per pass", CollectiveOp::kSendRecv, kv_bytes, s.groups.cp);
  if (s.kernels.Pytorch()) {
    w.Add("cp", "dK/dV ring step (fp32), cp per backward", CollectiveOp::kSendRecv, 2 * kv_bytes,
          s.groups.cp);
  }
  if (d.experts > 0 && p.ep > 1) {
    if (UsesTwoHop(s)) {
      const TwoHopPasses hops = TwoHopPassesOf(d, s);
      if (hops.fp8_dispatch) {
        w.AddTwoHop("MoE dispatch (two-hop, FP8)", hops.dispatch, s.groups.ep);
        w.AddTwoHop("MoE combine (two-hop)", hops.combine, s.groups.ep);
      } else {
        w.AddTwoHop("MoE dispatch / combine (two-hop)", hops.combine, s.groups.ep);
      }
    } else {
      w.Add("ep", "MoE dispatch / combine", CollectiveOp::kAllToAll,
            kAct * (s.tokens / s.tp) * d.top_k * d.hidden * s.moe_load, s.groups.ep);
    }
  }
  if (p.pp > 1) {
    w.Add("pp", "activations to the next stage", CollectiveOp::kSendRecv,
          kAct * s.norm_tokens * d.hidden, PlaceGroup(2, s.groups.pp.stride, cluster));
  }
  DataParallelCalls(d, p, e, w);
  return w.out;
}

}  // namespace paraplan
