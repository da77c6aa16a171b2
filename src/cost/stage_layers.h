// The layers on each pipeline stage of an evaluated plan: the plan's fixed layout
// (plan/stage_layout.h), uniform virtual stages, or balanced by the layer costs (one layer at a
// time over physical stages; stage_balance.h over virtual ones), embedding, loss and MTP counted.
#pragma once

#include "cost/plan_evaluation.h"

namespace paraplan {

// Fills eval's chunk_layers, chunk_begins, layers, counts and begins. Needs its layer and edge
// costs (kinds, embed_fwd_s, logits_*, mtp_proj_fwd_s) and mtp_chunk; throws InputError where
// the plan's fixed layout does not fit the model.
void AssignStageLayers(const CostGraph& dims, const ParallelPlan& plan, PlanEvaluation& eval);

}  // namespace paraplan
