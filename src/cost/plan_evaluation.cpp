#include "cost/plan_evaluation.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "cost/compute_cost.h"
#include "cost/fp8_amax.h"
#include "cost/memory_model.h"
#include "cost/overlap_sm.h"
#include "cost/pipeline_hops.h"
#include "cost/stage_balance.h"
#include "hardware/collective_cost.h"
#include "hardware/nccl_channels.h"
#include "plan/stage_layout.h"

namespace paraplan {
namespace {

constexpr double kAct = 2.0;
// Adam step traffic per parameter (fp32 master, grad, m, v read; master, m, v, bf16 copy
// written): 16 + 14 bytes with fp32 moments, 12 + 10 with bf16 moments.
double OptimizerTrafficBytes(MomentDtype moments) {
  const double m = moments == MomentDtype::kBf16 ? 2.0 : 4.0;
  return (4 + 4 + 2 * m) + (4 + 2 * m + 2);
}

double D(int64_t v) {
  return static_cast<double>(v);
}

double CommDtypeBytes(CommDtype t) {
  switch (t) {
    case CommDtype::kFp32:
      return 4;
    case CommDtype::kBf16:
      return 2;
    case CommDtype::kFp8:
      return 1;
  }
  return 4;
}

// Per-layer seconds of one micro-batch forward + backward incl. exposed comm (for balancing).
double LayerTotal(const LayerCost& c) {
  return c.fwd_s + c.bwd_s + c.recompute_s + c.tp_comm_s + c.cp_comm_s + c.ep_comm_s +
         c.SmLossFwd() + c.SmLossBwd();
}

// One micro-batch through the MTP modules, forward + backward: each a layer, its 2h -> h
// projection, the shared output head and loss, and the embedding of the shifted tokens
// (DeepSeek-V3 report, Sec. 2.2).
double MtpWork(const CostGraph& d, const PlanEvaluation& e) {
  if (d.mtp_layers == 0) return 0;
  return static_cast<double>(d.mtp_layers) *
         (LayerTotal(e.kinds[d.mtp_kind]) + 3 * e.mtp_proj_fwd_s + e.logits_fwd_s + e.logits_bwd_s +
          3 * e.embed_fwd_s);
}

// Work on the last stage besides its layers: the loss, and the MTP modules when they sit there.
double LastExtra(const CostGraph& d, const PlanEvaluation& e) {
  return e.logits_fwd_s + e.logits_bwd_s +
         (e.mtp_chunk == e.chunk_layers.size() - 1 ? MtpWork(d, e) : 0);
}

double StageWork(const CostGraph& d, const PlanEvaluation& e, int64_t begin, int64_t end,
                 bool first, bool last) {
  double t = 0;
  const auto counts = KindCounts(d, begin, end);
  for (int k = 0; k < kLayerKinds; ++k) t += counts[k] * LayerTotal(e.kinds[k]);
  if (first) t += e.embed_fwd_s * 3;
  if (last) t += LastExtra(d, e);
  return t;
}

// True when every layer is of one kind: a stage's work then depends on its layer count only.
bool OneLayerKind(const CostGraph& d) {
  int kinds = 0;
  for (int k = 0; k < kLayerKinds; ++k) kinds += d.prefix[d.layers][k] > 0 ? 1 : 0;
  return kinds <= 1;
}

// work[s] for the stages in [from, to].
void StageWorks(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e, int64_t from,
                int64_t to, StageVector<double>& work) {
  int64_t begin = 0;
  for (int64_t s = 0; s < from; ++s) begin += e.layers[s];
  for (int64_t s = from; s <= to; ++s) {
    work[s] = StageWork(d, e, begin, begin + e.layers[s], s == 0, s == p.pp - 1);
    begin += e.layers[s];
  }
}

// vpp = 1, no fixed layout: balanced by moving one layer at a time from the heaviest to the
// lightest stage while the maximum drops. A move changes the work of the two stages only (and of
// those between them, whose first layer shifts, when the model mixes layer kinds).
void BalancePhysicalStages(const CostGraph& d, const ParallelPlan& p, PlanEvaluation& e) {
  const int64_t base = d.layers / p.pp, extra = d.layers % p.pp;
  for (int64_t s = 0; s < p.pp; ++s) e.layers[s] = base + (s >= p.pp - extra ? 1 : 0);
  if (p.pp == 1) return;
  const bool one_kind = OneLayerKind(d);
  StageVector<double> work;
  work.Resize(p.pp);
  StageWorks(d, p, e, 0, p.pp - 1, work);
  for (int64_t iter = 0; iter < 2 * p.pp + d.layers; ++iter) {
    int64_t hi = 0, lo = 0;
    for (int64_t s = 1; s < p.pp; ++s) {
      if (work[s] > work[hi]) hi = s;
      if (work[s] < work[lo]) lo = s;
    }
    if (e.layers[hi] <= 1 || hi == lo) return;
    const double per_layer =
        (work[hi] - (hi == 0 ? e.embed_fwd_s * 3 : 0) - (hi == p.pp - 1 ? LastExtra(d, e) : 0)) /
        D(e.layers[hi]);
    if (work[lo] + per_layer >= work[hi]) return;
    --e.layers[hi];
    ++e.layers[lo];
    if (one_kind) {
      StageWorks(d, p, e, hi, hi, work);
      StageWorks(d, p, e, lo, lo, work);
    } else {
      StageWorks(d, p, e, std::min(hi, lo), std::max(hi, lo), work);
    }
  }
}

// Layers per virtual stage: the fixed layout when the plan states one (plan/stage_layout.h);
// uniform chunks when vpp > 1 divides the layers evenly (Megatron-LM's default); otherwise
// balanced over the virtual stages, embedding, loss and MTP counted (stage_balance.h).
void AssignChunkLayers(const CostGraph& d, const ParallelPlan& p, PlanEvaluation& e) {
  const int64_t chunks = VirtualStages(p);
  e.chunk_layers.Resize(chunks);
  e.layers.Resize(p.pp);
  if (HasFixedLayout(p)) {
    std::vector<int64_t> fixed;
    const std::string error = ResolveVirtualLayers(d.layers, d.mtp_layers, p, &fixed);
    if (!error.empty()) throw InputError(error);
    for (int64_t v = 0; v < chunks; ++v) e.chunk_layers[v] = fixed[v];
  } else if (p.vpp > 1 && d.layers % chunks != 0) {
    BalanceInput in;
    in.dims = &d;
    for (int k = 0; k < kLayerKinds; ++k) in.layer_work[k] = LayerTotal(e.kinds[k]);
    in.stages = chunks;
    in.first_extra = 3 * e.embed_fwd_s;
    in.last_extra = e.logits_fwd_s + e.logits_bwd_s;
    in.mtp_stage = e.mtp_chunk;
    in.mtp_extra = MtpWork(d, e);
    BalanceVirtualStages(in, e.chunk_layers);
  } else if (p.vpp > 1) {
    for (int64_t v = 0; v < chunks; ++v) e.chunk_layers[v] = d.layers / chunks;
  } else {
    BalancePhysicalStages(d, p, e);
    for (int64_t v = 0; v < chunks; ++v) e.chunk_layers[v] = e.layers[v];
  }
}

// Physical stages from the virtual ones: layers, kind counts, first layers.
void StagesFromChunks(const CostGraph& d, const ParallelPlan& p, PlanEvaluation& e) {
  const int64_t chunks = VirtualStages(p);
  e.chunk_begins.Resize(chunks);
  e.counts.Resize(p.pp);
  for (int64_t s = 0; s < p.pp; ++s) e.layers[s] = 0;
  int64_t begin = 0;
  for (int64_t v = 0; v < chunks; ++v) {
    const int64_t s = v % p.pp, n = e.chunk_layers[v];
    e.chunk_begins[v] = begin;
    e.layers[s] += n;
    const auto c = KindCounts(d, begin, begin + n);
    for (int k = 0; k < kLayerKinds; ++k) e.counts[s][k] += c[k];
    begin += n;
  }
}

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
  shape = MakePlanShape(d, p, groups);
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
  AssignChunkLayers(d, p, e);
  StagesFromChunks(d, p, e);
  e.begins.Resize(p.pp);
  int64_t begin = 0;
  for (int64_t s = 0; s < p.pp; ++s) {
    e.begins[s] = begin;
    begin += e.layers[s];
  }
}

// What a stage's costs depend on: its layers of each kind and whether it holds the embedding
// (first stage) or the output layer (last stage). Stages with equal keys cost the same.
struct StageKey {
  std::array<int32_t, kLayerKinds> counts{};
  bool first = false, last = false, mtp = false;
  PipelineHop send_fwd, send_bwd;  // the hops its sends take (StageSendHop)
  bool operator==(const StageKey& o) const {
    return counts[0] == o.counts[0] && counts[1] == o.counts[1] && counts[2] == o.counts[2] &&
           counts[3] == o.counts[3] && first == o.first && last == o.last && mtp == o.mtp &&
           send_fwd.s == o.send_fwd.s && send_bwd.s == o.send_bwd.s &&
           send_fwd.sm_share == o.send_fwd.sm_share && send_bwd.sm_share == o.send_bwd.sm_share;
  }
};
static_assert(kLayerKinds == 4, "StageKey::operator== compares four kinds");

StageKey KeyOf(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e, int64_t s) {
  (void)d;
  StageKey key;
  key.counts = e.counts[s];
  key.first = s == 0;
  key.last = s == p.pp - 1;
  key.mtp = e.mtp_chunk >= 0 && e.mtp_chunk % p.pp == s;
  key.send_fwd = StageSendHop(p, e, s, true);
  key.send_bwd = StageSendHop(p, e, s, false);
  return key;
}

// Dense and expert parameters of a stage on one GPU.
void StageParams(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                 const StageKey& key, double* dense, double* expert) {
  *dense = 0;
  *expert = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    *dense += key.counts[k] * e.kinds[k].params_local;
    *expert += key.counts[k] * e.kinds[k].expert_params_local;
  }
  const double embed = d.embedding_params / D(p.tp);
  if (key.first) *dense += embed;
  if (key.last && (!d.tied_embeddings || p.pp > 1)) *dense += embed;
  if (key.mtp) {
    // Each module's layer and 2h -> h projection; the MTP stage keeps a copy of the embedding
    // unless it is the first stage (shared like tied embeddings in Megatron-LM).
    const LayerCost& l = e.kinds[d.mtp_kind];
    const double n = D(d.mtp_layers);
    *dense += n * (l.params_local + 2 * d.hidden * d.hidden / D(p.tp));
    *expert += n * l.expert_params_local;
    if (!key.first) *dense += embed;
  }
}

// The embedding and output-layer parameters of a stage on one GPU (StageParams counts them too).
double StageEmbedParams(const CostGraph& d, const ParallelPlan& p, const StageKey& key) {
  const double embed = d.embedding_params / D(p.tp);
  double out = 0;
  if (key.first) out += embed;
  if (key.last && (!d.tied_embeddings || p.pp > 1)) out += embed;
  return out;
}

// Gradient reduction, distributed-optimizer gather, ZeRO-3 gathers and optimizer of one stage.
StageDp StageDataParallel(const Cluster& c, const NetworkLinks& links, const ParallelPlan& p,
                          const PlanEvaluation& e, const StageKey& key, double embed, double dense,
                          double expert) {
  StageDp dp;
  const PlanShape& s = e.shape;
  const double dtype = CommDtypeBytes(DpGradCommDtype(p));
  const double bucket = std::max(DpBucketBytes(p), 1.0);
  const CollectiveOp grad_op =
      p.zero == 0 ? CollectiveOp::kAllReduce : CollectiveOp::kReduceScatter;
  auto bucketed = [&](CollectiveOp op, double bytes, const GroupPlacement& g, int64_t* count) {
    if (bytes <= 0 || g.size < 2) return 0.0;
    const double n = std::ceil(bytes / bucket);
    if (count) *count += static_cast<int64_t>(n);
    return n * CollectiveSeconds(op, bytes / n, g, links);
  };
  dp.buckets = 0;
  const double dense_grad = bucketed(grad_op, dense * dtype, s.groups.dp_cp, &dp.buckets);
  const double expert_grad = bucketed(grad_op, expert * dtype, s.groups.edp, &dp.buckets);
  dp.grad_s = dense_grad + expert_grad;
  // The SMs the bucket stream's NCCL kernels hold, time-weighted over the dense and expert
  // groups (NVLS kernels where NCCL picks NVLS for a bucket).
  auto share = [&](const GroupPlacement& g, double bytes) {
    if (bytes <= 0 || g.size < 2 || c.gpu.sm_count <= 0) return 0.0;
    const double one = std::min(bytes, bucket);
    return SmShare(NcclKernelCtas(grad_op, g, c, NcclPicksNvls(grad_op, one, g, links)), c.gpu);
  };
  if (dp.grad_s > 0) {
    dp.sm_share = (dense_grad * share(s.groups.dp_cp, dense * dtype) +
                   expert_grad * share(s.groups.edp, expert * dtype)) /
                  dp.grad_s;
  } else if (p.zero == 1 || p.zero == 2) {
    dp.sm_share = share(s.groups.dp_cp, dense * kAct);
  }
  dp.shared_nic = s.groups.dp_cp.tier >= 1 || s.groups.edp.tier >= 1;
  dp.buckets = std::max<int64_t>(dp.buckets, 1);
  const double gather = bucketed(CollectiveOp::kAllGather, dense * kAct, s.groups.dp_cp, nullptr) +
                        bucketed(CollectiveOp::kAllGather, expert * kAct, s.groups.edp, nullptr);
  if (p.zero == 1 || p.zero == 2) dp.param_gather_s = gather;
  if (p.zero == 3 && p.zero3_keep_gathered) {
    dp.param_gather_s = gather;  // gathered once per step, like the distributed optimizer's
  } else if (p.zero == 3) {
    // Unit by unit, every micro-batch: the gradients go out with each micro-batch's backward.
    dp.zero3 =
        Zero3StageComm(key.counts, e.kinds, embed, s.groups.dp_cp, s.groups.edp, dtype, links);
    if (p.kernels.Pytorch()) {
      // FSDP2 copies every gathered unit out of its buffer and every gradient into the
      // reduce-scatter input on the compute stream (zero3_comm.h, Fsdp2CopyBytes).
      const double copied =
          (s.groups.dp_cp.size > 1 ? dense : 0.0) + (s.groups.edp.size > 1 ? expert : 0.0);
      const Fsdp2Copy bytes = Fsdp2CopyBytes(dtype);
      dp.zero3.copy_fwd_s = MemoryBoundSeconds(c, copied * bytes.forward);
      dp.zero3.copy_bwd_s = MemoryBoundSeconds(c, copied * bytes.backward);
    }
    dp.zero3_gather_s = dp.zero3.gather_s;
    dp.grad_s = 0;
    dp.buckets = 1;
  }
  const double dense_shard = p.zero >= 1 ? D(s.groups.dp_cp.size) : 1.0;
  const double expert_shard = p.zero >= 1 ? D(s.groups.edp.size) : 1.0;
  const double local = dense / dense_shard + expert / expert_shard;
  const double offload = p.recipe.optimizer_offload;
  dp.optimizer_s = MemoryBoundSeconds(
      c, local * (1 - offload) * OptimizerTrafficBytes(p.recipe.optimizer_moments));
  if (offload > 0 && c.gpu.host_link_GBps > 0) {
    // Megatron-LM's HybridDeviceOptimizer without --overlap-cpu-optimizer-d2h-h2d runs three
    // phases one after another (its README: "CPU Optimizer step, GPU gradient D2H and CPU
    // optimizer updated parameter H2D"), none under compute: the offloaded share's fp32
    // gradients go down the host link, the CPU's Adam streams its state through host DRAM (the
    // GPU step's bytes less the bf16 weight copy, made on the GPU), the fp32 parameters come
    // back up. The CPU step at the DRAM's datasheet bandwidth is a lower bound; without
    // gpu.host_memory_GBps it is not costed.
    const double offloaded = local * offload;
    dp.optimizer_s += 2 * offloaded * kGradBytes / (c.gpu.host_link_GBps * 1e9);
    if (c.gpu.host_memory_GBps > 0) {
      const double cpu_bytes = OptimizerTrafficBytes(p.recipe.optimizer_moments) - kWeightBytes;
      dp.optimizer_s += offloaded * cpu_bytes / (c.gpu.host_memory_GBps * 1e9);
    }
  }
  return dp;
}

// n layers' TP/CP/EP collective time, hidden or not, into the stage's busy streams.
void AddBusy(const LayerCost& l, double n, StageBusy* busy) {
  if (!busy) return;
  for (int g = 0; g < kCommZero3; ++g) {
    busy->fwd_s[g] += n * l.comm_busy_fwd_s[g];
    busy->bwd_s[g] += n * l.comm_busy_bwd_s[g];
    busy->sm_loss_fwd_s[g] += n * l.sm_loss_fwd_s[g];
    busy->sm_loss_bwd_s[g] += n * l.sm_loss_bwd_s[g];
  }
}

// n layers' compute lost to the SMs their overlapped TP/CP/EP kernels hold: into the forward and
// the input-gradient backward, and per stream into the stage's tally.
void AddSmLoss(const LayerCost& l, double n, StageTimes& t, StageComm& comm) {
  t.f += n * l.SmLossFwd();
  t.b += n * l.SmLossBwd();
  for (int g = 0; g < kCommZero3; ++g) {
    comm.sm_loss_s[g] += n * (l.sm_loss_fwd_s[g] + l.sm_loss_bwd_s[g]);
  }
}

// One stage's forward / input-backward / weight-backward seconds per micro-batch, exposed
// TP/CP/EP/ZeRO-3/P2P communication folded in.
void StageTimesOf(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                  const StageKey& key, const Zero3Comm& zero3, double sends, StageTimes* times,
                  StageComm* stage_comm, StageBusy* busy = nullptr) {
  StageTimes t;
  StageComm comm;
  double net_fwd = 0, net_bwd = 0;  // network-tier time of the stage's TP/CP/EP collectives
  for (int k = 0; k < kLayerKinds; ++k) {
    if (key.counts[k] == 0) continue;
    const LayerCost& l = e.kinds[k];
    const double n = key.counts[k];
    t.f += n * l.fwd_s;
    t.b += n * (l.bwd_s - l.bwd_weight_s + l.recompute_s);
    t.w += n * l.bwd_weight_s;
    comm.tp_s += n * l.tp_comm_s;
    comm.cp_s += n * l.cp_comm_s;
    comm.ep_s += n * l.ep_comm_s;
    net_fwd += n * l.net_fwd_s;
    net_bwd += n * l.net_bwd_s;
    AddBusy(l, n, busy);
    AddSmLoss(l, n, t, comm);
    t.f += n * (l.tp_comm_fwd_s + l.cp_comm_fwd_s + l.ep_comm_fwd_s);
    t.b += n * (l.tp_comm_s - l.tp_comm_fwd_s + l.cp_comm_s - l.cp_comm_fwd_s + l.ep_comm_s -
                l.ep_comm_fwd_s);
  }
  if (key.first) {
    t.f += e.embed_fwd_s;
    t.b += 2 * e.embed_fwd_s;
  }
  if (key.last) {
    t.f += e.logits_fwd_s;
    t.b += e.logits_bwd_s;
  }
  if (key.mtp) {
    const LayerCost& l = e.kinds[d.mtp_kind];
    const double n = D(d.mtp_layers);
    t.f += n * (l.fwd_s + l.tp_comm_fwd_s + l.cp_comm_fwd_s + l.ep_comm_fwd_s + e.mtp_proj_fwd_s +
                e.logits_fwd_s + e.embed_fwd_s);
    t.b += n * (l.bwd_s - l.bwd_weight_s + l.recompute_s + l.tp_comm_s - l.tp_comm_fwd_s +
                l.cp_comm_s - l.cp_comm_fwd_s + l.ep_comm_s - l.ep_comm_fwd_s + e.mtp_proj_fwd_s +
                e.logits_bwd_s + 2 * e.embed_fwd_s);
    t.w += n * (l.bwd_weight_s + e.mtp_proj_fwd_s);
    comm.tp_s += n * l.tp_comm_s;
    comm.cp_s += n * l.cp_comm_s;
    comm.ep_s += n * l.ep_comm_s;
    net_fwd += n * l.net_fwd_s;
    net_bwd += n * l.net_bwd_s;
    AddBusy(l, n, busy);
    AddSmLoss(l, n, t, comm);
  }
  comm.net_fwd_s = net_fwd;
  comm.net_bwd_s = net_bwd;
  if (zero3.gather_s + zero3.reduce_scatter_s > 0) {
    if (busy) {
      busy->fwd_s[kCommZero3] = zero3.gather_s;
      busy->bwd_s[kCommZero3] = zero3.gather_s + zero3.reduce_scatter_s;
    }
    // ZeRO-3 gathers each layer's weights before its forward and again before its backward and
    // reduce-scatters its gradient after it; prefetching hides them under the compute
    // (zero3_comm.h).
    // When the DP group crosses the network too, it shares the NICs with that traffic: the
    // gathers and reduce-scatters get the pass's time minus what TP/CP/EP keep the NICs busy.
    const bool shared = e.shape.groups.dp_cp.tier >= 1;
    const double fwd_window = std::max(0.0, t.f - (shared ? net_fwd : 0.0));
    const double bwd_window = std::max(0.0, t.b + t.w - (shared ? net_bwd : 0.0));
    const Zero3Exposed x =
        Zero3ExposedSeconds(zero3, fwd_window, bwd_window, p.overlap_param_gather);
    // The gathers and reduce-scatters beside the compute hold their NCCL kernels' SMs (the
    // concurrent law, cost/overlap_sm.h): what is not exposed beyond the first unit runs beside it.
    const double fwd_floor = zero3.first_gather_s;
    const double bwd_floor = zero3.first_gather_s + zero3.last_reduce_scatter_s;
    const double loss_f = ConcurrentLossSeconds(zero3.gather_s - x.forward_s,
                                                x.forward_s - fwd_floor, e.zero3_sm_share);
    const double loss_b =
        ConcurrentLossSeconds(zero3.gather_s + zero3.reduce_scatter_s - x.backward_s,
                              x.backward_s - bwd_floor, e.zero3_sm_share);
    t.f += x.forward_s + loss_f;
    t.b += x.backward_s + loss_b;
    if (busy) {
      busy->sm_loss_fwd_s[kCommZero3] = loss_f;
      busy->sm_loss_bwd_s[kCommZero3] = loss_b;
    }
    comm.zero3_s = x.forward_s + x.backward_s;
    comm.sm_loss_s[kCommZero3] = loss_f + loss_b;
  }
  t.f += zero3.copy_fwd_s;
  t.b += zero3.copy_bwd_s;
  // TE's delayed-scaling amax reduction at each chunk's autocast exit, forward and backward.
  t.f += sends * e.amax_s;
  t.b += sends * e.amax_s;
  if (p.pp > 1 && !p.overlap_pp_comm) {
    t.f += sends * key.send_fwd.s;
    t.b += sends * key.send_bwd.s;
    comm.p2p_s = sends * (key.send_fwd.s + key.send_bwd.s);
  } else if (p.pp > 1) {
    // Overlapped sends (one activation forward, one gradient backward per chunk and micro-batch)
    // run beside the next task's compute and hold their NCCL kernel's SMs while they last.
    const double loss_f = sends * key.send_fwd.s * key.send_fwd.sm_share;
    const double loss_b = sends * key.send_bwd.s * key.send_bwd.sm_share;
    t.f += loss_f;
    t.b += loss_b;
    comm.sm_loss_s[kSmLossPp] = loss_f + loss_b;
  }
  *times = t;
  *stage_comm = comm;
}

// A stage's own exposed gradient reduction and parameter gather: Megatron-LM launches bucket
// reductions during the last micro-batch's backward and the distributed optimizer's gathers
// during the next forward.
// Interleaved: chunk j's gradients (j = 0 the last to finish) are ready during its last
// backward, pp chunk-backwards before chunk j - 1's (the cooldown runs pp micro-batches per
// chunk, Narayanan et al. SC'21 §2.2); the buckets queue on one DP stream. Returns the seconds
// the stream runs past the stage's last backward (what the simulator's DP tail computes).
double InterleavedGradExposed(const ParallelPlan& p, const StageTimes& t, const StageDp& dp,
                              double nic_rate) {
  const int64_t vpp = std::max<int64_t>(p.vpp, 1);
  // Before the stage's last backward ends the stream gets nic_rate of the NIC: in NIC-time
  // coordinates every ready time (all before the end) shrinks by that factor; after the end
  // NIC time is wall time. So the FIFO below runs on chunks of nic_rate x their length.
  const double chunk = nic_rate * (t.b + t.w) / D(vpp);
  const int64_t per_chunk = std::max<int64_t>(dp.buckets / vpp, 1);
  const int64_t total = vpp * per_chunk;
  const double bucket = dp.grad_s / D(total);
  // A FIFO of equal buckets ends at max_i (ready_i + (total - i) bucket). Bucket k (1-based) of
  // chunk j is ready at -j pp chunk - chunk + k chunk / per_chunk and is number
  // i = (vpp - 1 - j) per_chunk + k - 1; the expression is linear in j and in k, so its maximum
  // is at a corner.
  double end = 0;
  for (int64_t j : {int64_t{0}, vpp - 1}) {
    for (int64_t k : {int64_t{1}, per_chunk}) {
      const double ready = -D(j * p.pp) * chunk - chunk + chunk * D(k) / D(per_chunk);
      const int64_t i = (vpp - 1 - j) * per_chunk + k - 1;
      end = std::max(end, ready + D(total - i) * bucket);
    }
  }
  return end;
}

// The share of the NIC a pass of `busy_s` leaves the DP stream when its TP/CP/EP collectives
// keep the network tier busy for `net_s` of it (first-order time sharing of one link, as for
// ZeRO-3); 1 when the DP group does not cross the network.
double NicRate(bool shared, double net_s, double busy_s) {
  if (!shared || net_s <= 0 || busy_s <= 0) return 1.0;
  return std::max(0.0, 1.0 - net_s / busy_s);
}

void StageDpExposure(const ParallelPlan& p, const StageTimes& t, const StageComm& comm,
                     StageDp& dp) {
  const double vpp = D(std::max<int64_t>(p.vpp, 1));
  const double nb = D(dp.buckets);
  dp.nic_rate_bwd = NicRate(dp.shared_nic, comm.net_bwd_s, t.b + t.w);
  dp.nic_rate_fwd = NicRate(dp.shared_nic, comm.net_fwd_s, t.f);
  const double window = dp.nic_rate_bwd * (t.b + t.w) / vpp;
  double exposed = p.overlap_grad_reduce ? std::max(dp.grad_s / nb, dp.grad_s - window) : dp.grad_s;
  if (p.overlap_grad_reduce && p.schedule == Schedule::kInterleaved && p.vpp > 1 && dp.grad_s > 0) {
    exposed = InterleavedGradExposed(p, t, dp, dp.nic_rate_bwd);
  }
  exposed = std::min(std::max(exposed, 0.0), dp.grad_s);
  dp.grad_comm_exposed_s = exposed;
  // What ran before the last backward ended ran beside the compute, stretched by the NIC share:
  // the compute loses share x that wall time, and the step goes on after the later of the two
  // (the simulator's DP tail, sim/dp_tail.cpp, does the same bucket by bucket).
  const double hidden = dp.nic_rate_bwd > 0 ? (dp.grad_s - exposed) / dp.nic_rate_bwd : 0.0;
  dp.grad_sm_loss_s = hidden * dp.sm_share;
  dp.grad_exposed_s = std::max(exposed, dp.grad_sm_loss_s);
  const GatherWait g = ParamGatherWait(dp.param_gather_s, nb, t.f / vpp, dp.nic_rate_fwd,
                                       dp.sm_share, p.overlap_param_gather);
  dp.gather_sm_loss_s = g.sm_loss_s;
  dp.gather_exposed_s = g.wait_s + g.sm_loss_s;
}

// Times and data-parallel work of every stage, each distinct stage costed once.
void StageCosts(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                const ParallelPlan& p, PlanEvaluation& e) {
  struct Costed {
    StageKey key;
    int64_t stage = 0;
  };
  constexpr int kRemembered = 8;  // a balanced plan has 2-4 distinct stages
  std::array<Costed, kRemembered> costed{};
  int remembered = 0, next = 0;
  for (int64_t s = 0; s < p.pp; ++s) {
    const StageKey key = KeyOf(d, p, e, s);
    int64_t same = -1;
    for (int i = 0; i < remembered && same < 0; ++i) {
      if (costed[i].key == key) same = costed[i].stage;
    }
    if (same >= 0) {
      e.dp[s] = e.dp[same];
      e.times[s] = e.times[same];
      e.comm[s] = e.comm[same];
      continue;
    }
    double dense = 0, expert = 0;
    StageParams(d, p, e, key, &dense, &expert);
    e.dp[s] = StageDataParallel(c, links, p, e, key, StageEmbedParams(d, p, key), dense, expert);
    StageTimesOf(d, p, e, key, e.dp[s].zero3, D(std::max<int64_t>(p.vpp, 1)), &e.times[s],
                 &e.comm[s]);
    StageDpExposure(p, e.times[s], e.comm[s], e.dp[s]);
    costed[next] = {key, s};
    next = (next + 1) % kRemembered;
    remembered = std::min(remembered + 1, kRemembered);
  }
}

// Exposed DP communication of the step: stage s finishes its backward s stages before stage 0,
// which gives it slack.
void DataParallelExposure(const ParallelPlan& p, PlanEvaluation& e) {
  double grad = 0, gather = 0;
  const double vpp = D(std::max<int64_t>(p.vpp, 1));
  for (int64_t s = 0; s < p.pp; ++s) {
    const StageDp& dp = e.dp[s];
    const StageTimes& t = e.times[s];
    grad = std::max(grad, dp.grad_exposed_s - D(s) * (t.b + t.w) / vpp);
    gather = std::max(gather, dp.gather_exposed_s - D(s) * t.f / vpp);
    e.optimizer_s = std::max(e.optimizer_s, dp.optimizer_s);
  }
  e.dp_exposed_s = std::max(grad, 0.0) + std::max(gather, 0.0);
}

}  // namespace

StageTimes EvaluateChunkTimes(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                              int64_t chunk, StageBusy* busy) {
  const int64_t chunks = VirtualStages(p), s = chunk % p.pp;
  StageKey key;
  key.counts = KindCounts(d, e.chunk_begins[chunk], e.chunk_begins[chunk] + e.chunk_layers[chunk]);
  key.first = chunk == 0;
  key.last = chunk == chunks - 1;
  key.mtp = chunk == e.mtp_chunk;
  key.send_fwd = StageSendHop(p, e, s, true);
  key.send_bwd = StageSendHop(p, e, s, false);
  const double share =
      e.layers[s] > 0 ? D(e.chunk_layers[chunk]) / D(e.layers[s]) : 1.0 / D(chunks / p.pp);
  StageTimes t;
  StageComm comm;
  // The chunk's share of its stage's unit-by-unit ZeRO-3 traffic; the largest unit stays whole.
  Zero3Comm zero3 = e.dp[s].zero3;
  zero3.gather_s *= share;
  zero3.reduce_scatter_s *= share;
  zero3.copy_fwd_s *= share;
  zero3.copy_bwd_s *= share;
  StageTimesOf(d, p, e, key, zero3, 1.0, &t, &comm, busy);
  return t;
}

void EvaluatePlanTime(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                      const ParallelPlan& p, PlanEvaluation* out) {
  EvaluatePlanLayers(d, c, links, p, out);
  EvaluatePlanTimeAfterLayers(d, c, links, p, out);
}

void EvaluatePlanTimeAfterLayers(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                                 const ParallelPlan& p, PlanEvaluation* out) {
  PlanEvaluation& e = *out;
  e.times.Resize(p.pp);
  e.comm.Resize(p.pp);
  e.dp.Resize(p.pp);
  e.optimizer_s = 0;
  e.amax_s =
      Fp8AmaxSeconds(c, links, p, e.shape, D(d.layers) / D(p.pp * std::max<int64_t>(p.vpp, 1)));
  StageCosts(d, c, links, p, e);
  e.pipeline = PipelineMakespan(p.schedule, p.pp, p.vpp, e.micro_batches, e.times.data());
  // Fill and drain: with overlapped sends, 2(pp - 1) transfers delay the neighbours; without,
  // every send is already inside the stage times the makespan adds up.
  e.pp_comm_s = 0;
  if (p.pp > 1 && p.overlap_pp_comm) {
    for (int64_t b = 0; b + 1 < p.pp; ++b) e.pp_comm_s += 2 * e.hops[b].s;
  }
  DataParallelExposure(p, e);
  e.step_s = e.pipeline.makespan_s + e.pp_comm_s + e.dp_exposed_s + e.optimizer_s +
             c.efficiency.step_overhead_s;
}

namespace {

// What stage `stage` (with key `key`) holds, before the schedule multiplies activations.
StageMemoryInput StageMemoryInputOf(const CostGraph& d, const ParallelPlan& p,
                                    const PlanEvaluation& e, int64_t stage, const StageKey& key) {
  const auto& counts = key.counts;
  const PlanShape& s = e.shape;
  StageMemoryInput in;
  StageParams(d, p, e, key, &in.dense_params, &in.expert_params);
  in.dense_shards = D(p.dp * p.cp);
  in.expert_shards =
      D(std::max<int64_t>(p.tp * p.cp * p.dp / std::max<int64_t>(p.ep * p.etp, 1), 1));
  double layer_params = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    if (!e.present[k]) continue;
    in.act_per_micro_batch += counts[k] * e.kinds[k].act_bytes;
    in.act_working = std::max(in.act_working, e.kinds[k].act_recompute_bytes);
    layer_params = std::max(layer_params, e.kinds[k].params_local + e.kinds[k].expert_params_local);
  }
  if (stage == 0) in.act_per_micro_batch += kAct * s.norm_tokens * d.hidden;  // embedding out
  in.micro_batches_held = MicroBatchesHeld(p, stage);
  // bf16 logits, fp32 logits for the loss and their gradient (vocab-parallel cross-entropy).
  const double logits = s.tokens * (d.vocab / s.tp) * (2.0 + 4.0 * 2.0);
  if (stage == p.pp - 1) in.logits_bytes = logits;
  if (key.mtp) {
    // Each MTP module stores its layer's activations and its concatenated 2h input. Its loss
    // runs in the forward (Megatron-Core's MTP, DeepSeek-V3 Sec. 2.2) and keeps only its fp32
    // softmax for backward, 4 bytes per logit; the bf16 logits and the gradient are transient
    // and reuse the workspace the main head's loss already holds on the same stage. On a stage
    // without the main loss the first module's loss brings that workspace itself.
    const double n = D(d.mtp_layers);
    const double saved = s.tokens * (d.vocab / s.tp) * 4.0;
    in.act_per_micro_batch +=
        n * (e.kinds[d.mtp_kind].act_bytes + 2 * kAct * s.norm_tokens * d.hidden);
    in.logits_bytes += n * saved + (stage == p.pp - 1 ? 0.0 : logits - saved);
  }
  double buffers = s.tp > 1 ? 2 * kAct * s.tokens * d.hidden : 0;  // SP / TP gather outputs
  const bool keep_gathered = p.zero >= 3 && p.zero3_keep_gathered && p.dp * p.cp > 1;
  if (keep_gathered) {
    buffers += layer_params * GradBufferBytes(p);  // one layer's reduce-scatter input
  } else if (p.zero >= 3 && p.dp * p.cp > 1) {
    // 2 gathered layers + 1 gradient in the reduce dtype
    buffers += layer_params * (2 * kWeightBytes + GradBufferBytes(p));
  } else if (p.dp * p.cp > 1 &&
             (p.zero == 2 || CommDtypeBytes(DpGradCommDtype(p)) < GradBufferBytes(p))) {
    // Megatron's buckets are views of the full gradient buffer (zero 0-1), so only a
    // dp_comm_dtype narrower than the buffer or sharded gradients (zero 2) need bucket copies:
    // two buckets in flight. They never exceed what they replace: zero 2's transient unsharded
    // buckets plus its gradient shard stay within zero 1's full gradient buffer.
    const double params = in.dense_params + in.expert_params;
    const double cap =
        p.zero == 2 ? params * GradBufferBytes(p) * (1.0 - 1.0 / static_cast<double>(p.dp * p.cp))
                    : params * CommDtypeBytes(DpGradCommDtype(p));
    buffers += std::min(2 * DpBucketBytes(p), cap);
  }
  in.comm_buffer_bytes = buffers;
  in.keep_gathered = keep_gathered;
  in.optimizer_state_bytes =
      OptimizerStateBytes(p.recipe.optimizer_moments) * (1 - p.recipe.optimizer_offload);
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
  const StageKey key = KeyOf(d, p, e, stage);
  StageMemoryInput in = StageMemoryInputOf(d, p, e, stage, key);
  if (p.schedule != Schedule::kDualPipe) return in;
  const int64_t mirror = p.pp - 1 - stage;
  const StageKey other_key = KeyOf(d, p, e, mirror);
  const StageMemoryInput other = StageMemoryInputOf(d, p, e, mirror, other_key);
  in.dense_params += other.dense_params;
  in.expert_params += other.expert_params;
  if ((key.first && other_key.mtp && !other_key.first) ||
      (other_key.first && key.mtp && !key.first)) {
    in.dense_params -= d.embedding_params / D(p.tp);  // the MTP module's embedding is shared
  }
  in.act_per_micro_batch = (in.act_per_micro_batch + other.act_per_micro_batch) / 2;
  in.act_working = std::max(in.act_working, other.act_working);
  in.logits_bytes = std::max(in.logits_bytes, other.logits_bytes);
  in.comm_buffer_bytes = std::max(in.comm_buffer_bytes, other.comm_buffer_bytes);
  return in;
}

}  // namespace

StageMemory EvaluateStageMemory(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                                int64_t stage) {
  return ComputeStageMemory(RankMemoryInput(d, p, e, stage), p.zero, stage);
}

double EvaluatePeakMemory(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e) {
  // Stages with equal keys differ only in the micro-batches they hold, which never grows with
  // the stage index (MicroBatchesHeld), and every byte count grows with it when the activations
  // are not negative: a later stage never exceeds an earlier one with the same key.
  double peak = 0;
  if (p.schedule == Schedule::kDualPipe) {  // ranks r and pp-1-r hold the same stages
    for (int64_t s = 0; s < (p.pp + 1) / 2; ++s) {
      peak = std::max(peak, EvaluateStageMemory(d, p, e, s).TotalBytes());
    }
    return peak;
  }
  constexpr int kRemembered = 8;
  std::array<StageKey, kRemembered> seen{};
  int remembered = 0, next = 0;
  for (int64_t s = 0; s < p.pp; ++s) {
    const StageKey key = KeyOf(d, p, e, s);
    bool dominated = false;
    for (int i = 0; i < remembered && !dominated; ++i) dominated = seen[i] == key;
    if (dominated) continue;
    const StageMemoryInput in = StageMemoryInputOf(d, p, e, s, key);
    peak = std::max(peak, ComputeStageMemory(in, p.zero, s).TotalBytes());
    if (!(in.act_per_micro_batch >= 0)) continue;
    seen[next] = key;
    next = (next + 1) % kRemembered;
    remembered = std::min(remembered + 1, kRemembered);
  }
  return peak;
}

}  // namespace paraplan
