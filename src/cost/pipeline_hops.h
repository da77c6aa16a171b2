// The pipeline's sends, each stage boundary on the network tier its ranks share
// (hardware/group_placement.h PipelineHopTier): what stage_times.cpp charges each stage's
// sends and what the simulator sends on each hop (docs/cost-model.md, "PP").
#pragma once

#include "cost/cost_graph.h"
#include "cost/plan_evaluation.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// e.hops (one per boundary, the interleaved wrap included) and e.p2p_s (the slowest hop that
// carries a send) from the plan's shape (e.shape) and pipeline placement.
void PipelineHops(const CostGraph& dims, const Cluster& cluster, const NetworkLinks& links,
                  const ParallelPlan& plan, PlanEvaluation& e);

}  // namespace paraplan
