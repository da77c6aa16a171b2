#include "cost/collective_calls.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "cost/deepep_rates.h"
#include "cost/dp_comm.h"
#include "cost/memory_model.h"
#include "cost/moe_dispatch.h"
#include "cost/stage_key.h"
#include "cost/torchao_float8.h"
#include "cost/zero3_fetch.h"
#include "cost/zero3_schedule.h"
#include "plan/parallel_plan.h"

namespace paraplan {
namespace {

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
  void AddTwoHop(const char* what, const TwoHopTraffic& traffic, const GroupPlacement& g,
                 const TwoHopRates* rates = nullptr) {
    const double bytes = traffic.network_bytes + traffic.nvlink_bytes;
    if (g.size < 2 || bytes <= 0) return;
    CollectiveCall c = Row(ToString(ParallelDim::kEp), what, CollectiveOp::kAllToAll, bytes, g);
    c.algorithm = "two-hop";
    c.protocol = "-";
    c.seconds = TwoHopSeconds(traffic, g, links, rates);
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

// The first stage's weights on one GPU as ZeRO-3 sees them (zero3_schedule.h): the embedding as
// the root unit, then one unit per layer of its GEMM weights (n x k per matrix, split as TP, EP
// and ETP split them; norms and biases left out).
std::vector<Zero3Param> FirstStageZero3Params(const CostGraph& d, const PlanEvaluation& e) {
  std::vector<Zero3Param> out;
  const PlanShape& s = e.shape;
  out.push_back({0, d.vocab * d.hidden / s.tp, d.vocab / s.tp});
  if (e.layers.size() == 0) return out;
  for (int64_t l = 0; l < e.layers[0]; ++l) {
    const auto one = KindCounts(d, e.begins[0] + l, e.begins[0] + l + 1);
    size_t kind = 0;
    while (kind + 1 < one.size() && one[kind] == 0) ++kind;
    const LayerGemms& g = d.gemms[kind];
    for (size_t i = 0; i < g.size; ++i) {
      const LayerGemm& op = g.ops[i];
      const double tp = op.expert ? s.etp : s.tp;
      const double split = op.split == GemmSplit::kReplicated ? 1.0 : tp;
      const double matrices = op.expert ? std::max(op.count / s.ep, 1.0) : op.count;
      const double rows = op.split == GemmSplit::kColumn ? op.n / split : op.n;
      const auto count = static_cast<int64_t>(std::ceil(matrices));  // whole matrices per rank
      for (int64_t m = 0; m < count; ++m) out.push_back({l + 1, op.n * op.k / split, rows});
    }
  }
  return out;
}

// Per framework, the per-micro-batch ZeRO-3 calls of the first stage: count and mean size.
void Zero3IssuerCalls(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                      Describer& w) {
  const GroupPlacement& g = e.shape.groups.dp_cp;
  const std::vector<Zero3Param> params = FirstStageZero3Params(d, e);
  struct Issuer {
    Zero3Issuer issuer;
    double grad_bytes;
  };
  // Gradient dtypes as each defaults under bf16: DeepSpeed's communication_data_type bf16,
  // FSDP1 the parameters' bf16, FSDP2 under torchtitan float32 (zero3_schedule.h).
  const Issuer issuers[] = {
      {Zero3Issuer::kDeepSpeed, 2.0}, {Zero3Issuer::kFsdp1, 2.0}, {Zero3Issuer::kFsdp2, 4.0}};
  (void)p;
  for (const Issuer& i : issuers) {
    const Zero3Schedule z = Zero3Collectives(i.issuer, params, g.size, kAct, i.grad_bytes);
    const std::string name = ToString(i.issuer);
    auto add = [&](CollectiveOp op, int64_t count, double bytes, const char* what) {
      if (count == 0) return;
      const size_t before = w.out.size();
      w.Add(ToString(ParallelDim::kDp), "", op, bytes / static_cast<double>(count), g);
      if (w.out.size() > before) {
        w.out.back().what =
            name + ": " + std::to_string(count) + " " + what + " per micro-batch (mean size)";
      }
    };
    add(CollectiveOp::kAllGather, z.all_gathers, z.gather_bytes, "weight gathers");
    add(CollectiveOp::kReduceScatter, z.reduce_scatters, z.reduce_scatter_bytes,
        "gradient reduce-scatters");
  }
}

// The first stage's weight gathers as DeepSpeed's coordinator issues them and the step charges
// them (zero3_fetch.h): per micro-batch, how many, how many on demand, their mean size.
void DeepSpeedCoordinatorCalls(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                               Describer& w) {
  const GroupPlacement& g = e.shape.groups.dp_cp;
  const StageKey key = StageLayersKeyOf(p, e, 0);
  int64_t gathers = 0, on_demand = 0;
  double elements = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    if (key.counts[k] == 0) continue;
    for (const FetchGather& f : DeepSpeedStackFetch(
             DeepSpeedLayerModules(d, k, p.tp), key.counts[k], DeepSpeedFetchSettingsOf(p.kernels),
             p.recompute == Recompute::kFull)) {
      ++gathers;
      on_demand += f.on_demand ? 1 : 0;
      elements += f.elements;
    }
  }
  if (gathers == 0) return;
  const size_t before = w.out.size();
  w.Add(ToString(ParallelDim::kDp), "", CollectiveOp::kAllGather,
        elements * kAct / static_cast<double>(gathers), g);
  if (w.out.size() > before) {
    w.out.back().what = "DeepSpeed's coordinator, as charged: " + std::to_string(gathers) +
                        " module gathers per micro-batch, " + std::to_string(on_demand) +
                        " on demand (mean size)";
  }
}

void DataParallelCalls(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                       Describer& w) {
  const GroupPlacement& g = e.shape.groups.dp_cp;
  double dense = 0, layer = 0;
  FirstStageParams(d, e, &dense, &layer);
  const double dtype = CommDtypeBytes(DpGradCommDtype(p));
  if (p.zero == 3 && !p.zero3_keep_gathered) {
    // Kept gathered from the forward to the backward, a unit is gathered once per micro-batch.
    w.Add(ToString(ParallelDim::kDp),
          Zero3KeepsAfterForward(p) ? "ZeRO-3 weights, per layer, fwd only (kept for bwd)"
                                    : "ZeRO-3 weights, per layer, fwd and bwd",
          CollectiveOp::kAllGather, layer * kAct, g);
    w.Add(ToString(ParallelDim::kDp), "ZeRO-3 gradient, per layer", CollectiveOp::kReduceScatter,
          layer * dtype, g);
    Zero3IssuerCalls(d, p, e, w);
    if (p.kernels.DeepSpeedZero3()) DeepSpeedCoordinatorCalls(d, p, e, w);
    return;
  }
  const double grads = dense * dtype;
  if (p.zero == 1 && p.kernels.zero1_all_reduce) {  // nanotron's ZeRO-1 (cost/dp_comm.cpp)
    // One call each over the first stage's whole buffer (embedding included), as charged.
    double stage = 0, expert = 0;
    StageParams(d, p, e, StageLayersKeyOf(p, e, 0), &stage, &expert);
    w.Add(ToString(ParallelDim::kDp), "whole gradient buffer, after the backward",
          CollectiveOp::kAllReduce, stage * dtype, g);
    w.Add(ToString(ParallelDim::kDp), "updated parameters, one call", CollectiveOp::kAllGather,
          stage * kAct, g);
    return;
  }
  const double bucket = std::max(DpBucketBytes(p), 1.0);
  const double n = std::max(DpBucketCount(p, true, grads, bucket), 1.0);
  w.Add(ToString(ParallelDim::kDp), "gradient bucket", DpGradOp(p), grads / n, g);
  if (Zero1Broadcasts(p) && g.size > 1) {  // InternLM (cost/dp_comm.cpp)
    // One broadcast per ZeRO rank of its shard of the first stage's whole buffer (embedding
    // included, as charged), costed as the all-gather that moves its bytes (dp_comm.h).
    double stage = 0, expert = 0;
    StageParams(d, p, e, StageLayersKeyOf(p, e, 0), &stage, &expert);
    w.Add(ToString(ParallelDim::kDp), "parameter shard broadcast, one per ZeRO rank",
          CollectiveOp::kAllGather, ShardBroadcastCallBytes(stage * kAct, g.size), g);
    return;
  }
  if (p.zero >= 1) {
    const double weights = dense * kAct;
    const double m = std::max(DpBucketCount(p, true, weights, bucket), 1.0);
    w.Add(ToString(ParallelDim::kDp), "parameter all-gather bucket", CollectiveOp::kAllGather,
          weights / m, g);
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
    w.Add(ToString(ParallelDim::kTp), "per layer, 2 per pass (SP)", CollectiveOp::kAllGather,
          TpAllGatherBytesPerElement(s) * s.tokens * d.hidden, s.groups.tp);
    w.Add(ToString(ParallelDim::kTp), "per layer, 2 per pass (SP)", CollectiveOp::kReduceScatter,
          act, s.groups.tp);
  } else {
    w.Add(ToString(ParallelDim::kTp), "per layer, 2 per pass", CollectiveOp::kAllReduce, act,
          s.groups.tp);
  }
  const double kv_bytes = kAct * s.tokens * AttentionKvHeads(d, s) * (d.qk_head_dim + d.v_head_dim);
  w.Add(ToString(ParallelDim::kCp), "K/V ring step, cp-1 per pass", CollectiveOp::kSendRecv,
        kv_bytes, s.groups.cp);
  if (s.kernels.Pytorch()) {
    w.Add(ToString(ParallelDim::kCp), "dK/dV ring step (fp32), cp per backward",
          CollectiveOp::kSendRecv, 2 * kv_bytes, s.groups.cp);
  }
  if (d.experts > 0 && p.ep > 1) {
    if (UsesTwoHop(s)) {
      const TwoHopPasses hops = TwoHopPassesOf(d, s);
      const TwoHopEngine engine = TwoHopEngineOf(s);
      if (engine != TwoHopEngine::kLinks) {  // each pass at its library's measured rates
        const bool hybrid = engine == TwoHopEngine::kHybridEp;
        const TwoHopRates to =
            TwoHopRatesOf(cluster, s.groups.ep, EngineFractions(engine, s.groups.ep, false));
        const TwoHopRates back =
            TwoHopRatesOf(cluster, s.groups.ep, EngineFractions(engine, s.groups.ep, true));
        w.AddTwoHop(hybrid ? "MoE dispatch (two-hop, HybridEP)" : "MoE dispatch (two-hop, DeepEP)",
                    hops.dispatch, s.groups.ep, &to);
        w.AddTwoHop(hybrid ? "MoE combine (two-hop, HybridEP)" : "MoE combine (two-hop, DeepEP)",
                    hops.combine, s.groups.ep, &back);
      } else if (hops.fp8_dispatch) {
        w.AddTwoHop("MoE dispatch (two-hop, FP8)", hops.dispatch, s.groups.ep);
        w.AddTwoHop("MoE combine (two-hop)", hops.combine, s.groups.ep);
      } else {
        w.AddTwoHop("MoE dispatch / combine (two-hop)", hops.combine, s.groups.ep);
      }
    } else {
      w.Add(ToString(ParallelDim::kEp), "MoE dispatch / combine", CollectiveOp::kAllToAll,
            kAct * (s.tokens / s.tp) * d.top_k * d.hidden * s.moe_load, s.groups.ep);
    }
  }
  if (p.pp > 1) {
    // One row per tier the stage boundaries cross, naming the boundaries on it (plan_evaluation.h
    // PipelineHop): a boundary inside a node sends over NVLink, one across nodes over the network.
    const int64_t boundaries = p.vpp > 1 ? p.pp : p.pp - 1;
    for (int tier = 0; tier < kMaxTiers; ++tier) {
      std::string which;
      for (int64_t b = 0; b < boundaries && b < e.hops.size(); ++b) {
        if (e.hops[b].tier != tier) continue;
        which +=
            (which.empty() ? "" : ", ") + std::to_string(b) + "->" + std::to_string((b + 1) % p.pp);
      }
      if (which.empty()) continue;
      const size_t before = w.out.size();
      w.Add(ToString(ParallelDim::kPp), "activations to the next stage", CollectiveOp::kSendRecv,
            kAct * s.norm_tokens * d.hidden, PairOnTier(tier, s.groups.pp.stride));
      if (w.out.size() > before) w.out.back().what += " (stages " + which + ")";
    }
  }
  if (p.pp > 1 && d.tied_embeddings && e.layers.size() > 0 && !StageKeyOf(p, e, 0).last) {
    // The tied embedding's gradient between stage 0 and stage pp - 1, once per step, with the
    // optimizer (cost/dp_comm.cpp, StageDataParallel).
    w.Add(ToString(ParallelDim::kPp), "tied embedding's gradient, first and last stage, per step",
          CollectiveOp::kAllReduce, EmbedParamsLocal(d, p) * CommDtypeBytes(DpGradCommDtype(p)),
          TiedEmbeddingPair(p, s, cluster));
  }
  DataParallelCalls(d, p, e, w);
  return w.out;
}

}  // namespace paraplan
