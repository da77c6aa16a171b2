#include "cost/plan_evaluation.h"

#include <algorithm>

#include "core/as_double.h"
#include "cost/compute_cost.h"
#include "cost/dp_comm.h"
#include "cost/fp8_amax.h"
#include "cost/overlap_sm.h"
#include "cost/pipeline_hops.h"
#include "cost/stage_key.h"
#include "cost/stage_layers.h"
#include "cost/stage_times.h"
#include "cost/straggler.h"
#include "hardware/collective_cost.h"
#include "hardware/nccl_channels.h"
#include "plan/stage_layout.h"

namespace paraplan {
namespace {

void EdgeCosts(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
               const ParallelPlan& p, PlanEvaluation& e) {
  const PlanShape& s = e.shape;
  const double vocab = d.vocab / s.tp;
  e.embed_fwd_s = MemoryBoundSeconds(c, 2 * kAct * s.norm_tokens * d.hidden);
  // The output layer stays in bf16 under fp8 recipes; the loss reads fp32 logits 3 times.
  const double logits_gemm_s = GemmSeconds(c, Precision::kBf16, s.tokens, vocab, d.hidden);
  e.logits_fwd_s = logits_gemm_s + MemoryBoundSeconds(c, s.tokens * vocab * 4.0 * 3.0);
  e.logits_bwd_s = 2 * logits_gemm_s + MemoryBoundSeconds(c, s.tokens * vocab * 4.0 * 2.0);
  e.mtp_proj_fwd_s =
      d.mtp_layers > 0 ? GemmSeconds(c, p.precision, s.tokens, d.hidden / s.tp, 2 * d.hidden) : 0;
  // Read only where ZeRO-3 traffic exists; not keyed on `zero`, which the search's cost memo
  // (search_core.cpp) does not key these edge costs on.
  e.zero3_sm_share = SmShare(NcclKernelCtas(CollectiveOp::kAllGather, s.groups.dp_cp, c), c.gpu);
  PipelineHops(d, c, links, p, e);
}
}  // namespace

PlanLayerCosts ComputePlanLayerCosts(const CostGraph& d, const Cluster& c,
                                     const NetworkLinks& links, const ParallelPlan& p) {
  return ComputePlanLayerCosts(d, c, links, p, PlacePlan(p, c));
}

namespace {

// The shape and one layer of each kind the model has (its MTP kind included), in place.
void FillLayerCosts(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                    const ParallelPlan& p, const PlanPlacement& groups, PlanShape& shape,
                    std::array<LayerCost, kLayerKinds>& kinds,
                    std::array<bool, kLayerKinds>& present) {
  shape = MakePlanShape(d, p, groups, c.gpu);
  for (int k = 0; k < kLayerKinds; ++k) {
    present[k] = d.prefix[d.layers][k] > 0;
    const bool mtp = d.mtp_layers > 0 && k == d.mtp_kind;
    kinds[k] = present[k] || mtp ? ComputeLayerCost(d, k, shape, c, links) : LayerCost{};
  }
}

// EvaluatePlanLayers after the shape and the layer costs.
void LayoutStages(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                  const ParallelPlan& p, PlanEvaluation& e);

}  // namespace

PlanLayerCosts ComputePlanLayerCosts(const CostGraph& d, const Cluster& c,
                                     const NetworkLinks& links, const ParallelPlan& p,
                                     const PlanPlacement& groups) {
  PlanLayerCosts l;
  FillLayerCosts(d, c, links, p, groups, l.shape, l.kinds, l.present);
  return l;
}

void EvaluatePlanLayers(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                        const ParallelPlan& p, PlanEvaluation* out) {
  FillLayerCosts(d, c, links, p, PlacePlan(p, c), out->shape, out->kinds, out->present);
  LayoutStages(d, c, links, p, *out);
}

void EvaluatePlanLayers(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                        const ParallelPlan& p, const PlanLayerCosts& layers, PlanEvaluation* out) {
  out->shape = layers.shape;
  out->kinds = layers.kinds;
  out->present = layers.present;
  LayoutStages(d, c, links, p, *out);
}

namespace {

void LayoutStages(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                  const ParallelPlan& p, PlanEvaluation& e) {
  e.micro_batches = std::max<int64_t>(p.MicroBatches(), 1);
  e.mtp_chunk = d.mtp_layers > 0 ? MtpVirtualStage(p) : -1;
  EdgeCosts(d, c, links, p, e);
  AssignStageLayers(d, p, e);
}

// One distinct stage's times and data-parallel work, into stage s's entries.
void CostStage(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
               const ParallelPlan& p, PlanEvaluation& e, const StageKey& key, int64_t s) {
  double dense = 0, expert = 0;
  StageParams(d, p, e, key, &dense, &expert);
  e.dp[s] = StageDataParallel(c, links, d, p, e, key, StageEmbedParams(d, p, key), dense, expert);
  StageTimesOf(d, p, e, key, e.dp[s].zero3, D(std::max<int64_t>(p.vpp, 1)), &e.times[s],
               &e.comm[s]);
  e.times[s].b += e.dp[s].grad_accum_s;
  StageDpExposure(p, e.times[s], e.comm[s], e.dp[s]);
  e.dp[s].micro_batch_reduce_s = Zero2MicroBatchReduceSeconds(p, e.dp[s], e.micro_batches);
  e.times[s].b += e.dp[s].micro_batch_reduce_s;
}

// Times and data-parallel work of every stage from the layout's stage classes: each distinct
// key costed once, at its first stage, then copied.
void StageCostsByClass(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                       const ParallelPlan& p, PlanEvaluation& e, const StageClasses& classes) {
  for (size_t i = 0; i < classes.keys.size(); ++i) {
    CostStage(d, c, links, p, e, classes.keys[i], classes.first[i]);
  }
  for (int64_t s = 0; s < p.pp; ++s) {
    const int64_t same = classes.first[static_cast<size_t>(classes.of[static_cast<size_t>(s)])];
    if (same == s) continue;
    e.dp[s] = e.dp[same];
    e.times[s] = e.times[same];
    e.comm[s] = e.comm[same];
  }
}

}  // namespace

void EvaluatePlanTime(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                      const ParallelPlan& p, PlanEvaluation* out) {
  EvaluatePlanLayers(d, c, links, p, out);
  EvaluatePlanTimeAfterLayers(d, c, links, p, out);
}

void EvaluatePlanTimeAfterLayers(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                                 const ParallelPlan& p, PlanEvaluation* out,
                                 const StageClasses* classes) {
  PlanEvaluation& e = *out;
  // StageCostsByClass writes every stage's times, communication and DP work.
  e.times.ResizeForOverwrite(p.pp);
  e.comm.ResizeForOverwrite(p.pp);
  e.dp.ResizeForOverwrite(p.pp);
  e.optimizer_s = 0;
  e.amax_s =
      Fp8AmaxSeconds(c, links, p, e.shape, D(d.layers) / D(p.pp * std::max<int64_t>(p.vpp, 1)));
  if (classes == nullptr) {
    thread_local StageClasses found;
    StageClassesOf(p, e, &found);
    classes = &found;
  }
  StageCostsByClass(d, c, links, p, e, *classes);
  e.pipeline = PipelineMakespan(p.schedule, p.pp, p.vpp, e.micro_batches, e.times.data());
  // Fill and drain: with overlapped sends, 2(pp - 1) transfers delay the neighbours; without,
  // every send is already inside the stage times the makespan adds up.
  e.pp_comm_s = 0;
  if (p.pp > 1 && p.overlap_pp_comm) {
    for (int64_t b = 0; b + 1 < p.pp; ++b) e.pp_comm_s += 2 * e.hops[b].s;
  }
  DataParallelExposure(p, e);
  // Every GPU of the plan synchronises every step: the compute runs at the slowest one's pace.
  e.straggler_fraction = SlowestRankFraction(c.gpu.speed_sigma, p.Gpus());
  e.straggler_s = 0;
  if (e.straggler_fraction > 0) {
    const double exposed = e.comm[e.pipeline.slowest_stage].ExposedS();
    const double compute = e.pipeline.makespan_s - D(e.micro_batches) * exposed;
    e.straggler_s = e.straggler_fraction * std::max(compute, 0.0);
  }
  e.step_s = e.pipeline.makespan_s + e.pp_comm_s + e.dp_exposed_s + e.optimizer_s + e.straggler_s +
             c.efficiency.step_overhead_s;
}

}  // namespace paraplan
