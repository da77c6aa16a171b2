#include "cost/stage_memory.h"

#include <algorithm>

#include "cost/dp_comm.h"
#include "cost/stage_key.h"

namespace paraplan {
namespace {

// What stage `stage` (with key `key`) holds, before the schedule multiplies activations.
StageMemoryInput StageMemoryInputOf(const CostGraph& d, const ParallelPlan& p,
                                    const PlanEvaluation& e, int64_t stage, const StageKey& key) {
  const auto& counts = key.counts;
  const PlanShape& s = e.shape;
  StageMemoryInput in;
  StageParams(d, p, e, key, &in.dense_params, &in.expert_params);
  in.dense_shards = DenseShards(p);
  in.expert_shards = ExpertShards(p);
  double layer_params = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    if (!e.present[k]) continue;
    in.act_per_micro_batch += counts[k] * e.kinds[k].act_bytes;
    in.act_working = std::max(in.act_working, e.kinds[k].act_recompute_bytes);
    layer_params = std::max(layer_params, e.kinds[k].params_local + e.kinds[k].expert_params_local);
  }
  if (stage == 0) in.act_per_micro_batch += EmbedActBytes(d, s);  // embedding out
  in.micro_batches_held = MicroBatchesHeld(p, stage);
  const double logits = LogitsBytes(d, s);
  if (stage == p.pp - 1) in.logits_bytes = logits;
  if (key.mtp) {
    // Each MTP module stores its layer's activations and its concatenated 2h input. Its loss
    // runs in the forward (Megatron-Core's MTP, DeepSeek-V3 Sec. 2.2) and keeps only its fp32
    // softmax for backward, 4 bytes per logit; the bf16 logits and the gradient are transient
    // and reuse the workspace the main head's loss already holds on the same stage. On a stage
    // without the main loss the first module's loss brings that workspace itself.
    in.act_per_micro_batch += MtpActBytes(d, s, e.kinds[d.mtp_kind]);
    in.logits_bytes += MtpLogitsBytes(d, s, stage == p.pp - 1);
  }
  in.comm_buffer_bytes = TpGatherBufferBytes(d, s) + Zero3LayerBufferBytes(p, layer_params) +
                         DpBucketCopyBytes(p, in.dense_params + in.expert_params);
  in.keep_gathered = Zero3KeepsGathered(p);
  in.keep_after_forward = Zero3HoldsWeightsAfterForward(p);
  in.optimizer_state_bytes = GpuOptimizerStateBytes(p);
  in.grad_bytes = KeptGradBytes(p);
  in.accumulated_grad_bytes = GradBufferBytes(p);
  in.ema_bytes_per_param = p.recipe.ema == EmaPlace::kGpu ? kEmaBytes : 0.0;
  return in;
}

// DualPipe: rank r runs stage r of one direction and stage pp-1-r of the other (DeepSeek-V3
// report, Sec. 3.2.1; Table 2's "2x parameters"), so it holds both stages' parameters. Its pp+1
// held micro-batch chunks (MicroBatchesHeld) split between the two stages. An MTP module on the
// rank that also holds the embedding shares it, and the output head is the main model's on the
// same rank (Sec. 3.2.3, "Shared Embedding and Output Head for Multi-Token Prediction").
StageMemoryInput RankMemoryInput(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                                 int64_t stage) {
  const StageKey key = StageLayersKeyOf(p, e, stage);
  StageMemoryInput in = StageMemoryInputOf(d, p, e, stage, key);
  if (p.schedule != Schedule::kDualPipe) return in;
  const int64_t mirror = p.pp - 1 - stage;
  const StageKey other_key = StageLayersKeyOf(p, e, mirror);
  const StageMemoryInput other = StageMemoryInputOf(d, p, e, mirror, other_key);
  in.dense_params += other.dense_params;
  in.expert_params += other.expert_params;
  if ((key.first && other_key.mtp && !other_key.first) ||
      (other_key.first && key.mtp && !key.first)) {
    in.dense_params -= EmbedParamsLocal(d, p);  // the MTP module's embedding is shared
  }
  in.act_per_micro_batch = (in.act_per_micro_batch + other.act_per_micro_batch) / 2;
  in.act_working = std::max(in.act_working, other.act_working);
  in.logits_bytes = std::max(in.logits_bytes, other.logits_bytes);
  in.comm_buffer_bytes = std::max(in.comm_buffer_bytes, other.comm_buffer_bytes);
  return in;
}

}  // namespace

bool Zero3HoldsWeightsAfterForward(const ParallelPlan& p) {
  return Zero3KeepsAfterForward(p) && p.dp * p.cp > 1;
}

double Zero3LayerBufferBytes(const ParallelPlan& p, double layer_params) {
  if (p.zero < 3 || p.dp * p.cp <= 1) return 0;
  if (Zero3KeepsGathered(p)) return layer_params * GradBufferBytes(p);  // reduce-scatter input
  return layer_params * (2 * kWeightBytes + GradBufferBytes(p));  // 2 gathered layers + 1 gradient
}

double DpBucketCopyBytes(const ParallelPlan& p, double params) {
  if (p.zero >= 3 || p.dp * p.cp <= 1) return 0;
  // Megatron's buckets are views of the full gradient buffer (zero 0-1), so only a dp_comm_dtype
  // narrower than the buffer or sharded gradients (zero 2) need bucket copies: two buckets in
  // flight. They never exceed what they replace: zero 2's transient unsharded buckets plus its
  // gradient shard stay within zero 1's full gradient buffer.
  if (p.zero != 2 && CommDtypeBytes(DpGradCommDtype(p)) >= GradBufferBytes(p)) return 0;
  const double cap =
      p.zero == 2 ? params * GradBufferBytes(p) * (1.0 - 1.0 / static_cast<double>(p.dp * p.cp))
                  : params * CommDtypeBytes(DpGradCommDtype(p));
  return std::min(2 * DpBucketBytes(p), cap);
}

StageMemory EvaluateStageMemory(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                                int64_t stage) {
  return ComputeStageMemory(RankMemoryInput(d, p, e, stage), p.zero, stage);
}

double EvaluatePeakMemory(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e) {
  return EvaluatePeakMemory(d, p, e, PeakMemoryCandidates(p, e));
}

namespace {

// What a stage's memory depends on besides its held micro-batches (StageMemoryInputOf reads the
// key's counts, first, last and mtp, never its hops).
struct MemoryKey {
  std::array<int32_t, kLayerKinds> counts{};
  bool first = false, last = false, mtp = false;
  bool operator==(const MemoryKey& o) const {
    // Element by element: std::array's == is a call to memcmp, and the search asks this for
    // every stage of 606,000 layouts.
    return counts[0] == o.counts[0] && counts[1] == o.counts[1] && counts[2] == o.counts[2] &&
           counts[3] == o.counts[3] && first == o.first && last == o.last && mtp == o.mtp;
  }
};

static_assert(kLayerKinds == 4, "MemoryKey::operator== compares four kinds");

MemoryKey MemoryKeyOf(const ParallelPlan& p, const PlanEvaluation& e, int64_t s) {
  return MemoryKey{e.counts[s], s == 0, s == p.pp - 1, e.mtp_chunk >= 0 && e.mtp_chunk % p.pp == s};
}

// The largest memory of every stage (DualPipe: rank r holds stages r and pp-1-r, so the first
// half of the ranks), none skipped.
double EveryStagePeakMemory(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e) {
  const int64_t n = p.schedule == Schedule::kDualPipe ? (p.pp + 1) / 2 : p.pp;
  double peak = 0;
  for (int64_t s = 0; s < n; ++s) {
    peak = std::max(peak, EvaluateStageMemory(d, p, e, s).TotalBytes());
  }
  return peak;
}

}  // namespace

PeakMemoryStages PeakMemoryCandidates(const ParallelPlan& p, const PlanEvaluation& e) {
  PeakMemoryStages out;
  out.count = 0;
  const bool dualpipe = p.schedule == Schedule::kDualPipe;
  const int64_t n = dualpipe ? (p.pp + 1) / 2 : p.pp;
  std::array<std::array<MemoryKey, 2>, PeakMemoryStages::kMax> seen{};
  for (int64_t s = 0; s < n; ++s) {
    const std::array<MemoryKey, 2> key{MemoryKeyOf(p, e, s),
                                       dualpipe ? MemoryKeyOf(p, e, p.pp - 1 - s) : MemoryKey{}};
    bool known = false;
    for (int i = 0; i < out.count && !known; ++i) known = seen[i] == key;
    if (known) continue;
    if (out.count == PeakMemoryStages::kMax) {
      out.count = -1;
      return out;
    }
    seen[out.count] = key;
    out.stages[out.count++] = static_cast<int32_t>(s);
  }
  return out;
}

double EvaluatePeakMemory(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                          const PeakMemoryStages& stages) {
  if (stages.count < 0) return EveryStagePeakMemory(d, p, e);
  double peak = 0;
  for (int i = 0; i < stages.count; ++i) {
    const int64_t s = stages.stages[i];
    const StageMemoryInput in = RankMemoryInput(d, p, e, s);
    // Negative activations (a fit nobody should make, but not excluded) break the order.
    if (!(in.act_per_micro_batch >= 0)) return EveryStagePeakMemory(d, p, e);
    peak = std::max(peak, ComputeStageMemory(in, p.zero, s).TotalBytes());
  }
  return peak;
}

}  // namespace paraplan
