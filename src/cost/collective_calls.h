// The collectives an evaluated plan issues, one representative call per kind, each with the
// tier it crosses and what NCCL runs for it (explain's "Collectives" table). Sizes follow the
// cost model (layer_comm.cpp, dp_comm.cpp, zero3_comm.cpp) for the first stage.
#pragma once

#include <vector>

#include "cost/cost_graph.h"
#include "cost/plan_evaluation.h"
#include "cost/step_result.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"

namespace paraplan {

std::vector<CollectiveCall> DescribeCollectives(const CostGraph& dims, const Cluster& cluster,
                                                const NetworkLinks& links, const ParallelPlan& plan,
                                                const PlanEvaluation& eval);

}  // namespace paraplan
