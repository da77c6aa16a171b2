#include "cost/stage_key.h"

#include "core/as_double.h"

namespace paraplan {

StageKey StageLayersKeyOf(const ParallelPlan& p, const PlanEvaluation& e, int64_t s) {
  StageKey key;
  key.counts = e.counts[s];
  key.first = s == 0;
  key.last = s == p.pp - 1;
  key.mtp = e.mtp_chunk >= 0 && e.mtp_chunk % p.pp == s;
  return key;
}

StageKey StageKeyOf(const ParallelPlan& p, const PlanEvaluation& e, int64_t s) {
  StageKey key = StageLayersKeyOf(p, e, s);
  key.send_fwd = StageSendHop(p, e, s, true);
  key.send_bwd = StageSendHop(p, e, s, false);
  return key;
}

void StageClassesOf(const ParallelPlan& p, const PlanEvaluation& e, StageClasses* out) {
  out->keys.clear();
  out->first.clear();
  out->of.assign(static_cast<size_t>(p.pp), 0);
  for (int64_t s = 0; s < p.pp; ++s) {
    const StageKey key = StageKeyOf(p, e, s);
    size_t i = 0;
    while (i < out->keys.size() && !(out->keys[i] == key)) ++i;
    if (i == out->keys.size()) {
      out->keys.push_back(key);
      out->first.push_back(s);
    }
    out->of[static_cast<size_t>(s)] = static_cast<int32_t>(i);
  }
}

double EmbedParamsLocal(const CostGraph& d, const ParallelPlan& p) {
  return d.embedding_params / D(p.tp);
}

void StageParams(const CostGraph& d, const ParallelPlan& p, const PlanEvaluation& e,
                 const StageKey& key, double* dense, double* expert) {
  *dense = 0;
  *expert = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    *dense += key.counts[k] * e.kinds[k].params_local;
    *expert += key.counts[k] * e.kinds[k].expert_params_local;
  }
  const double embed = EmbedParamsLocal(d, p);
  if (key.first) *dense += embed;
  if (key.last && (!d.tied_embeddings || p.pp > 1)) *dense += embed;
  if (key.mtp) {
    // Each module's layer and 2h -> h projection; the MTP stage keeps a copy of the embedding
    // unless it is the first stage (shared like tied embeddings in Megatron-LM).
    const LayerCost& l = e.kinds[d.mtp_kind];
    *dense += MtpDenseParamsLocal(d, p, l);
    *expert += D(d.mtp_layers) * l.expert_params_local;
    if (!key.first) *dense += embed;
  }
}

double MtpDenseParamsLocal(const CostGraph& d, const ParallelPlan& p, const LayerCost& l) {
  return D(d.mtp_layers) * (l.params_local + 2 * d.hidden * d.hidden / D(p.tp));
}

double StageEmbedParams(const CostGraph& d, const ParallelPlan& p, const StageKey& key) {
  const double embed = EmbedParamsLocal(d, p);
  double out = 0;
  if (key.first) out += embed;
  if (key.last && (!d.tied_embeddings || p.pp > 1)) out += embed;
  return out;
}

}  // namespace paraplan
