#include "search/memory_bound.h"

#include <algorithm>

#include "core/as_double.h"
#include "cost/memory_model.h"
#include "cost/stage_key.h"
#include "cost/stage_memory.h"
#include "plan/stage_layout.h"
#include "search/plan_bounds.h"

namespace paraplan {
namespace {

// Bytes per parameter of a stage's states with `shards` ZeRO shards (ComputeStageMemory, linear
// in the parameters): bf16 weights, kept gradients, optimizer state and EMA by the ZeRO stage,
// and what ZeRO-3 holds unsharded where more than one rank shards it: keep_gathered's weights and
// accumulated gradients, keep_after_forward's weights.
double StateBytesPerParam(const ParallelPlan& p, double shards) {
  auto sharded = [shards](double bytes, bool shard) { return bytes / (shard ? shards : 1.0); };
  double b = sharded(kWeightBytes, p.zero >= 3) + sharded(KeptGradBytes(p), p.zero >= 2) +
             sharded(GpuOptimizerStateBytes(p), p.zero >= 1);
  if (p.recipe.ema == EmaPlace::kGpu) b += sharded(kEmaBytes, p.zero >= 1);
  if (shards > 1 && Zero3KeepsGathered(p)) b += kWeightBytes + GradBufferBytes(p);
  if (shards > 1 && Zero3HoldsWeightsAfterForward(p)) b += kWeightBytes;
  return b;
}

// What one stage holds besides its layers (StageParams, StageMemoryInputOf): the embedding on
// the first, the output layer and the logits on the last, the MTP modules on theirs.
struct StageExtra {
  double dense = 0, expert = 0;  // parameters on one GPU
  double act = 0;                // stored per micro-batch
  double logits = 0;             // logits and loss workspace
};

// `embed_copy`: count the embedding the MTP stage keeps (StageParams); DualPipe's rank that
// also holds the first stage shares it (RankMemoryInput), so it is left out there.
StageExtra ExtraOf(const MemoryBoundTerms& m, int64_t s, int64_t pp, bool embed_copy) {
  StageExtra x;
  if (s == 0) {
    x.dense += m.embed;
    x.act += m.embed_act;
  }
  if (s == pp - 1) {
    x.dense += m.output;
    x.logits += m.logits;
  }
  if (s == m.mtp_stage) {
    x.dense += m.mtp_dense + (s != 0 && embed_copy ? m.embed : 0.0);
    x.expert += m.mtp_expert;
    x.act += m.mtp_act;
    x.logits += s == pp - 1 ? m.mtp_logits_last : m.mtp_logits_alone;
  }
  if (!m.acts_known) x.act = 0;
  return x;
}

}  // namespace

MemoryBoundTerms MemoryBoundTermsOf(const CostGraph& d, const ParallelPlan& p,
                                    const PlanLayerCosts& layers, double layer_act_bytes) {
  const PlanShape& shape = layers.shape;
  MemoryBoundTerms e;
  e.embed = EmbedParamsLocal(d, p);
  e.output = !d.tied_embeddings || p.pp > 1 ? e.embed : 0.0;
  e.embed_act = EmbedActBytes(d, shape);
  e.logits = LogitsBytes(d, shape);
  if (d.mtp_layers > 0) {
    const LayerCost& l = layers.kinds[d.mtp_kind];
    e.mtp_stage = MtpVirtualStage(p) % std::max<int64_t>(p.pp, 1);
    e.mtp_dense = MtpDenseParamsLocal(d, p, l);
    e.mtp_expert = D(d.mtp_layers) * l.expert_params_local;
    e.mtp_act = MtpActBytes(d, shape, l);
    e.mtp_logits_last = MtpLogitsBytes(d, shape, true);
    e.mtp_logits_alone = MtpLogitsBytes(d, shape, false);
  }
  for (int k = 0; k < kLayerKinds; ++k) {
    if (!layers.present[k]) continue;
    e.layer_params = std::max(e.layer_params,
                              layers.kinds[k].params_local + layers.kinds[k].expert_params_local);
  }
  // Negative stored activations (a fit nobody should make) break the sums: count none.
  e.acts_known = layer_act_bytes > 0 && e.embed_act >= 0 && e.mtp_act >= 0;
  return e;
}

double MemoryLowerBound(const ParallelPlan& p, const PlanBoundTerms& t) {
  constexpr double kDynamic = 1 + kFragmentation;  // activations, logits and buffers
  const int64_t pp = std::max<int64_t>(p.pp, 1);
  const bool dualpipe = p.schedule == Schedule::kDualPipe && pp % 2 == 0;
  const MemoryBoundTerms& ex = t.memory;
  const double layer_act = ex.acts_known ? t.act_bytes : 0.0;
  const double beta_dense = StateBytesPerParam(p, DenseShards(p));
  const double beta_expert = StateBytesPerParam(p, ExpertShards(p));
  // The layers' parameters less the embedding the terms count with them (stage 0's below).
  const double layers_dense = t.dense_params - ex.embed;
  const double layers_expert = t.expert_params;
  // DP bucket copies per parameter: DpBucketCopyBytes is concave in a stage's parameters and 0 at
  // none, so at most `most` parameters it is at least the chord through (most, its value).
  double extra_dense = ex.embed + ex.output, extra_expert = 0;
  if (ex.mtp_stage >= 0) {
    extra_dense += ex.mtp_dense + ex.embed;
    extra_expert += ex.mtp_expert;
  }
  const double most = layers_dense + layers_expert + extra_dense + extra_expert;
  const double bucket = most > 0 ? DpBucketCopyBytes(p, most) / most : 0.0;
  auto states = [&](double dense, double expert) {
    return beta_dense * dense + beta_expert * expert;
  };
  // Every stage: the reserve, the recompute working set, the SP gather and ZeRO-3 layer buffers.
  const double every_stage =
      (std::max(t.act_working, 0.0) + t.buffer_bytes + Zero3LayerBufferBytes(p, ex.layer_params)) *
          kDynamic +
      kRuntimeReserveBytes;
  // Micro-batches held by the first, the last and the MTP stage (never growing with the stage).
  const double held_first = MicroBatchesHeld(p, 0);
  const double held_last = pp > 1 ? std::max(MicroBatchesHeld(p, pp - 1), 0.0) : held_first;
  const StageExtra first = ExtraOf(ex, 0, pp, !dualpipe);
  const StageExtra last = pp > 1 ? ExtraOf(ex, pp - 1, pp, !dualpipe) : StageExtra{};
  const StageExtra mtp = ex.mtp_stage > 0 && ex.mtp_stage < pp - 1
                             ? ExtraOf(ex, ex.mtp_stage, pp, !dualpipe)
                             : StageExtra{};
  const int64_t mtp_s = std::max<int64_t>(ex.mtp_stage, 0);
  const double held_mtp = mtp.dense + mtp.expert + mtp.logits + mtp.act > 0
                              ? MicroBatchesHeld(p, mtp_s)
                              : 0.0;  // read only where the MTP stage is a middle one
  // Over all stages: parameters, stored activations (each stage's held micro-batches at least the
  // last stage's), logits.
  const double sum_dense = layers_dense + first.dense + last.dense + mtp.dense;
  const double sum_expert = layers_expert + first.expert + last.expert + mtp.expert;
  const double sum_states = states(sum_dense, sum_expert);
  const double sum_bucket = bucket * (sum_dense + sum_expert) * kDynamic;
  const double sum_act = (held_last * layer_act + held_first * first.act +
                          (pp > 1 ? held_last * last.act : 0.0) + held_mtp * mtp.act) *
                         kDynamic;
  double memory = 0;
  if (dualpipe) {
    // pp / 2 ranks, rank r holding stages r and pp-1-r: every stage's states once, its
    // activations half (the pair's mean), its buckets at least half (the pair's larger), and
    // rank 0's logits the larger of its two stages'.
    const double logits = std::max(first.logits, last.logits) * kDynamic;
    memory = (2 * sum_states + sum_bucket + sum_act + 2 * logits) / D(pp) + every_stage;
    // Rank 0 on its own.
    const double held = held_first;
    const double rank0 =
        states(first.dense + last.dense, first.expert + last.expert) +
        bucket * std::max(first.dense + first.expert, last.dense + last.expert) * kDynamic +
        (held * (first.act + last.act) / 2 + logits) * kDynamic + every_stage;
    return std::max(memory, rank0);
  }
  const double sum_logits = (first.logits + last.logits + mtp.logits) * kDynamic;
  memory = (sum_states + sum_bucket + sum_act + sum_logits) / D(pp) + every_stage;
  // Each stage with extras on its own (their layers, whatever they are, only add).
  auto alone = [&](const StageExtra& x, double held) {
    return states(x.dense, x.expert) + bucket * (x.dense + x.expert) * kDynamic +
           (held * x.act + x.logits) * kDynamic + every_stage;
  };
  memory = std::max(memory, alone(first, held_first));
  if (pp > 1) memory = std::max(memory, alone(last, held_last));
  if (held_mtp > 0) memory = std::max(memory, alone(mtp, held_mtp));
  // The mean weighted by 1 / (held(s) H), H = sum of 1 / held(s): each stage's activations count
  // 1 / H of theirs; its states and buckets at least 1 / (held(0) H) of theirs (stage 0 holds the
  // most), the extras by their stage's own weight.
  if (pp > 1 && layer_act > 0) {
    const HeldProfile h = MicroBatchesHeldProfile(p);
    if (h.inv_sum > 0 && h.max > 0 && h.last > 0) {
      auto weighted = [&](const StageExtra& x, double held) {
        return (states(x.dense, x.expert) + bucket * (x.dense + x.expert) * kDynamic +
                x.logits * kDynamic) /
                   (held * h.inv_sum) +
               x.act * kDynamic / h.inv_sum;
      };
      const double layers = (states(layers_dense, layers_expert) +
                             bucket * (layers_dense + layers_expert) * kDynamic) /
                                (h.max * h.inv_sum) +
                            layer_act * kDynamic / h.inv_sum;
      double w = layers + weighted(first, h.max) + weighted(last, h.last) + every_stage;
      if (held_mtp > 0) w += weighted(mtp, held_mtp);
      memory = std::max(memory, w);
    }
  }
  return memory;
}

}  // namespace paraplan
