#include "search/plan_bounds.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "core/as_double.h"
#include "cost/layer_cost.h"
#include "cost/memory_model.h"
#include "cost/stage_key.h"
#include "cost/stage_memory.h"
#include "search/memory_bound.h"
#include "search/space_knobs.h"

namespace paraplan {

namespace {

// Sums in another order than the cost model's may round differently: the bounds give up a
// relative 1e-9 so that they stay below the exact values.
constexpr double kRoundingSlack = 1.0 - 1e-9;

// H_n = 1 + 1/2 + ... + 1/n.
double Harmonic(int64_t n) {
  constexpr int64_t kTable = 4096;
  static const std::array<double, kTable + 1> table = [] {
    std::array<double, kTable + 1> h{};
    for (int64_t i = 1; i <= kTable; ++i) h[i] = h[i - 1] + 1.0 / D(i);
    return h;
  }();
  if (n <= kTable) return table[static_cast<size_t>(std::max<int64_t>(n, 0))];
  double h = table[kTable];
  for (int64_t i = kTable + 1; i <= n; ++i) h += 1.0 / D(i);
  return h;
}

}  // namespace

// MicroBatchesHeld(p, s) in closed form: min(a f, m) for a = pp - s in 1..pp, with f = 1 (1F1B,
// zero-bubble) or 1 + (pp - 1)/(pp vpp) (interleaved); m for GPipe. The sum of 1/min(a f, m) is
// H_A / f over the A stages below m, and 1/m for each other one. (Rounding differs from a sum over
// the stages by far less than the bounds' slack.)
HeldProfile MicroBatchesHeldProfile(const ParallelPlan& p) {
  const double m = D(std::max<int64_t>(p.MicroBatches(), 1));
  const double pp = D(p.pp);
  HeldProfile out;
  if (p.schedule == Schedule::kGpipe) {
    out.inv_sum = pp / m;
    out.max = out.last = m;
    return out;
  }
  double f = 1.0;
  if (p.schedule == Schedule::kInterleaved) {
    f = 1.0 + (pp - 1.0) / (pp * D(std::max<int64_t>(p.vpp, 1)));
  }
  const auto below = std::min<int64_t>(p.pp, static_cast<int64_t>(std::floor(m / f)));
  out.inv_sum = Harmonic(below) / f + D(p.pp - below) / m;
  out.max = std::min(pp * f, m);
  out.last = std::min(f, m);
  return out;
}

// The knob table's layer-cost bit (plan/knob_table.cpp). The schedule is read only as "is it
// DualPipe", which the caller keys apart: kScheduleVpp is not a layer-cost knob here.
bool LayerCostKnob(SpaceKnob k) {
  return k != SpaceKnob::kScheduleVpp && SpaceKnobReadBy(k, kReadByLayerCost);
}

PlanBoundTerms ComputePlanBoundTerms(const CostGraph& d, const Cluster& c,
                                     const NetworkLinks& links, const ParallelPlan& p) {
  return ComputePlanBoundTerms(d, p, ComputePlanLayerCosts(d, c, links, p));
}

bool AnyOverlapKnob(SpaceKnob k) {
  return LayerCostKnob(k) && k != SpaceKnob::kOverlapTp && k != SpaceKnob::kOverlapEp;
}

PlanBoundTerms ComputePlanBoundTerms(const CostGraph& d, const ParallelPlan& p,
                                     const PlanLayerCosts& layers, bool any_overlap) {
  PlanBoundTerms t;
  t.layers = layers;
  t.has_layers = true;
  t.any_overlap = any_overlap;
  const PlanShape& shape = t.layers.shape;
  bool negative_act = false;
  for (int k = 0; k < kLayerKinds; ++k) {
    const double n = d.prefix[d.layers][k];
    if (n <= 0) continue;
    const LayerCost& l = t.layers.kinds[k];
    // Every term of a stage's f + b + w (stage_times.cpp, StageTimesOf) that is not a layer's
    // is a non-negative addition (embedding, loss, MTP, ZeRO-3 exposure, sends).
    t.work_s +=
        any_overlap
            ? n * (l.fwd_s + l.bwd_s + l.recompute_s + l.cp_comm_s)
            : n * (l.fwd_s + l.bwd_s + l.recompute_s + l.tp_comm_s + l.cp_comm_s + l.ep_comm_s);
    if (l.act_bytes < 0) negative_act = true;
    t.act_bytes += n * l.act_bytes;
    t.dense_params += n * l.params_local;
    t.expert_params += n * l.expert_params_local;
    t.act_working = std::max(t.act_working, l.act_recompute_bytes);
  }
  if (negative_act || t.act_bytes < 0) t.act_bytes = 0;
  t.dense_params += EmbedParamsLocal(d, p);  // the first stage's embedding
  // stage_memory.cpp StageMemoryInputOf: every stage's buffers start at the SP / TP gather
  // outputs; what ZeRO and DP buckets add is non-negative.
  t.buffer_bytes = TpGatherBufferBytes(d, shape);
  t.memory = MemoryBoundTermsOf(d, p, t.layers, t.act_bytes);
  return t;
}

double ComputeStepBound(const Cluster& c, const ParallelPlan& p, const PlanBoundTerms& t) {
  const double pp = D(std::max<int64_t>(p.pp, 1));
  const double m = D(std::max<int64_t>(p.MicroBatches(), 1));
  // The makespan (cost/pipeline_time.h) is m x the slowest stage (or DualPipe pair's mean) plus
  // a bubble: for GPipe and 1F1B the other stages' work, for interleaved that over vpp, for
  // zero-bubble and DualPipe something non-negative. The slowest stage is at least the mean
  // stage, the sum of all stages at least work_s, so with mean = work_s / pp:
  //   GPipe, 1F1B  (m - 1) slow + sum       >= (m + pp - 1) mean
  //   interleaved  (m - 1/vpp) slow + sum/vpp >= (m + (pp - 1)/vpp) mean
  //   zero-bubble, DualPipe                  >= m mean
  // Sends, exposed DP communication and the optimizer step only add.
  double stages = m;
  switch (p.schedule) {
    case Schedule::kGpipe:
    case Schedule::k1F1B:
      stages = m + pp - 1;
      break;
    case Schedule::kInterleaved:
      stages = m + (pp - 1) / D(std::max<int64_t>(p.vpp, 1));
      break;
    case Schedule::kZeroBubble:
    case Schedule::kDualPipe:
      break;
  }
  const double step = stages * t.work_s / pp + c.efficiency.step_overhead_s;
  return std::max(0.0, step * kRoundingSlack);
}

PlanBounds ComputePlanBounds(const CostGraph& d, const Cluster& c, const ParallelPlan& p,
                             const PlanBoundTerms& t) {
  (void)d;
  PlanBounds b;
  b.step_s = ComputeStepBound(c, p, t);
  const double memory = MemoryLowerBound(p, t);
  b.memory_bytes = std::max(0.0, memory * kRoundingSlack);
  return b;
}

}  // namespace paraplan
