#include "cost/stage_layers.h"

#include <algorithm>
#include <array>
#include <string>
#include <vector>

#include "core/as_double.h"
#include "core/error.h"
#include "cost/stage_balance.h"
#include "plan/stage_layout.h"

namespace paraplan {
namespace {

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

// What balancing reads of an evaluation, taken once per balancing (the search balances the
// stages of some 10^5-10^6 plans): each kind's LayerTotal and the first and last stages' extra
// work, the same numbers as computed where they are used.
struct BalanceWork {
  std::array<double, kLayerKinds> layer{};
  double first = 0, last = 0;
};

BalanceWork BalanceWorkOf(const CostGraph& d, const PlanEvaluation& e) {
  BalanceWork w;
  for (int k = 0; k < kLayerKinds; ++k) w.layer[k] = LayerTotal(e.kinds[k]);
  w.first = e.embed_fwd_s * 3;
  w.last = LastExtra(d, e);
  return w;
}

double StageWork(const CostGraph& d, const BalanceWork& w, int64_t begin, int64_t end, bool first,
                 bool last) {
  double t = 0;
  const auto counts = KindCounts(d, begin, end);
  for (int k = 0; k < kLayerKinds; ++k) t += counts[k] * w.layer[k];
  if (first) t += w.first;
  if (last) t += w.last;
  return t;
}

// True when every layer is of one kind: a stage's work then depends on its layer count only.
bool OneLayerKind(const CostGraph& d) {
  int kinds = 0;
  for (int k = 0; k < kLayerKinds; ++k) kinds += d.prefix[d.layers][k] > 0 ? 1 : 0;
  return kinds <= 1;
}

// work[s] for the stages in [from, to].
void StageWorks(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                const BalanceWork& w, int64_t from, int64_t to, StageVector<double>& work) {
  int64_t begin = 0;
  for (int64_t s = 0; s < from; ++s) begin += e.layers[s];
  for (int64_t s = from; s <= to; ++s) {
    work[s] = StageWork(d, w, begin, begin + e.layers[s], s == 0, s == p.pp - 1);
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
  const BalanceWork w = BalanceWorkOf(d, e);
  StageVector<double> work;
  work.ResizeForOverwrite(p.pp);  // StageWorks writes each
  StageWorks(d, p, e, w, 0, p.pp - 1, work);
  for (int64_t iter = 0; iter < 2 * p.pp + d.layers; ++iter) {
    int64_t hi = 0, lo = 0;
    for (int64_t s = 1; s < p.pp; ++s) {
      if (work[s] > work[hi]) hi = s;
      if (work[s] < work[lo]) lo = s;
    }
    if (e.layers[hi] <= 1 || hi == lo) return;
    const double per_layer =
        (work[hi] - (hi == 0 ? w.first : 0) - (hi == p.pp - 1 ? w.last : 0)) / D(e.layers[hi]);
    if (work[lo] + per_layer >= work[hi]) return;
    --e.layers[hi];
    ++e.layers[lo];
    if (one_kind) {
      StageWorks(d, p, e, w, hi, hi, work);
      StageWorks(d, p, e, w, lo, lo, work);
    } else {
      StageWorks(d, p, e, w, std::min(hi, lo), std::max(hi, lo), work);
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

}  // namespace

void AssignStageLayers(const CostGraph& d, const ParallelPlan& p, PlanEvaluation& e) {
  AssignChunkLayers(d, p, e);
  StagesFromChunks(d, p, e);
  e.begins.Resize(p.pp);
  int64_t begin = 0;
  for (int64_t s = 0; s < p.pp; ++s) {
    e.begins[s] = begin;
    begin += e.layers[s];
  }
}

}  // namespace paraplan
