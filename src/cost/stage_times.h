// One stage's (or one virtual stage's) forward / input-backward / weight-backward seconds per
// micro-batch: its layers, embedding, loss and MTP modules, with the exposed TP/CP/EP, ZeRO-3
// and P2P communication and the compute the overlapped collectives' SMs take folded in.
#pragma once

#include "cost/plan_evaluation.h"
#include "cost/stage_key.h"

namespace paraplan {

// The stage `key` describes, `zero3` its unit-by-unit ZeRO-3 traffic, `sends` the sends (and
// amax reductions) of one micro-batch (vpp for a physical stage, 1 for a chunk). Its exposed
// communication per stream into `stage_comm`; everything each stream runs into `busy` (the trace).
void StageTimesOf(const CostGraph& dims, const ParallelPlan& plan, const PlanEvaluation& eval,
                  const StageKey& key, const Zero3Comm& zero3, double sends, StageTimes* times,
                  StageComm* stage_comm, StageBusy* busy = nullptr);

// One virtual stage's forward / input-backward / weight-backward seconds per micro-batch (for the
// simulator's per-chunk costs): its layers, embedding, loss and MTP; one send per chunk when
// P2P is not overlapped; ZeRO-3 gathers pro rata of the stage's layers.
StageTimes EvaluateChunkTimes(const CostGraph& dims, const ParallelPlan& plan,
                              const PlanEvaluation& eval, int64_t chunk, StageBusy* busy = nullptr);

}  // namespace paraplan
