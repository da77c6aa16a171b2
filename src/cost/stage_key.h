// What one pipeline stage's costs depend on (StageKey: its layers of each kind, whether it holds
// the embedding, the output layer or the MTP modules, the hops its sends take) and the
// parameters it holds on one GPU. Stages with equal keys cost the same, so the plan evaluation,
// the DP communication, the stage times and the stage memory all cost a key once.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cost/plan_evaluation.h"

namespace paraplan {

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

// The key of physical stage `s` of an evaluation whose layers are laid out (EvaluatePlanLayers).
StageKey StageKeyOf(const ParallelPlan& plan, const PlanEvaluation& eval, int64_t s);
// The same key without its send hops (0): its layers and roles, all that stage memory reads (a
// hop's lookup is a good part of a key's cost).
StageKey StageLayersKeyOf(const ParallelPlan& plan, const PlanEvaluation& eval, int64_t s);

// The distinct keys of an evaluation's physical stages and which one each stage has. They depend
// on the layout only (EvaluatePlanLayers' output and the plan's pp and vpp), so a caller that
// keeps one layout for several plans may find them once (the search does, search_core.cpp).
struct StageClasses {
  std::vector<StageKey> keys;  // distinct, in the order of their first stage
  std::vector<int64_t> first;  // the first stage of each key
  std::vector<int32_t> of;     // per stage: its key's index
};
void StageClassesOf(const ParallelPlan& plan, const PlanEvaluation& eval, StageClasses* out);

// The embedding's (or the untied output layer's) parameters on one GPU: split by tp.
double EmbedParamsLocal(const CostGraph& dims, const ParallelPlan& plan);

// Dense and expert parameters of a stage on one GPU: its layers, embedding, output layer and
// MTP modules.
void StageParams(const CostGraph& dims, const ParallelPlan& plan, const PlanEvaluation& eval,
                 const StageKey& key, double* dense, double* expert);

// The MTP modules' dense parameters on one GPU: each its layer's (`mtp_layer`, one layer of the
// MTP kind) and its 2h -> h projection, split by tp; not the embedding copy a stage may keep.
double MtpDenseParamsLocal(const CostGraph& dims, const ParallelPlan& plan,
                           const LayerCost& mtp_layer);

// The embedding and output-layer parameters of a stage on one GPU (StageParams counts them too).
double StageEmbedParams(const CostGraph& dims, const ParallelPlan& plan, const StageKey& key);

}  // namespace paraplan
