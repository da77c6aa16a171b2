// Data-parallel communication of one stage and what of it the step sees: gradient buckets
// (all-reduce or reduce-scatter), the distributed optimizer's parameter gather, ZeRO-3's
// unit-by-unit traffic, the optimizer step (offload included), and their exposure after the
// overlap with the last backward and the first forward (SMs and NICs shared with compute).
#pragma once

#include "cost/plan_evaluation.h"
#include "cost/stage_key.h"

namespace paraplan {

// Bytes of one element in the DP collectives' dtype.
double CommDtypeBytes(CommDtype t);

// Gradient reduction, distributed-optimizer gather, ZeRO-3 gathers and optimizer of one stage
// holding `dense` and `expert` parameters on one GPU, `embed` of them the embedding's.
StageDp StageDataParallel(const Cluster& cluster, const NetworkLinks& links,
                          const ParallelPlan& plan, const PlanEvaluation& eval, const StageKey& key,
                          double embed, double dense, double expert);

// The stage's own exposed gradient reduction and parameter gather, given its times (into dp).
void StageDpExposure(const ParallelPlan& plan, const StageTimes& t, const StageComm& comm,
                     StageDp& dp);

// The step's exposed DP communication and optimizer over the stages (eval.dp_exposed_s,
// eval.optimizer_s).
void DataParallelExposure(const ParallelPlan& plan, PlanEvaluation& eval);

}  // namespace paraplan
