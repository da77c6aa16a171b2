// One plan evaluated against a model and a cluster: per-kind layer costs, the layers on each
// stage, per-stage times, DP/PP communication, optimizer and memory. StepModel turns it into a
// StepResult (analytical) or a PipelineInput (simulator). Stages with the same layers cost the
// same, so each distinct stage is costed once; per-stage arrays stay inline (stage_vector.h), so
// the search's inner loop does not allocate.
// This file holds the evaluation's types and its order of work; each concept has its own file:
// the layers on each stage (stage_layers.h), what a stage's costs depend on (stage_key.h), DP
// communication and its exposure (dp_comm.h), per-stage times (stage_times.h, EvaluateChunkTimes)
// and per-stage memory (stage_memory.h, EvaluateStageMemory, EvaluatePeakMemory).
#pragma once

#include <array>
#include <cstdint>

#include "cost/cost_graph.h"
#include "cost/layer_cost.h"
#include "cost/pipeline_time.h"
#include "cost/stage_vector.h"
#include "cost/step_result.h"
#include "cost/zero3_comm.h"
#include "hardware/cluster.h"
#include "hardware/collective_cost.h"
#include "plan/parallel_plan.h"

namespace paraplan {

struct StageClasses;  // cost/stage_key.h

// Communication folded into one stage's micro-batch (exposed seconds, forward + backward).
struct StageComm {
  double tp_s = 0, cp_s = 0, ep_s = 0, zero3_s = 0, p2p_s = 0;
  // Compute lost to the SMs the overlapped communication holds (cost/overlap_sm.h), forward +
  // backward, per stream: kCommTp ... kCommZero3, then kSmLossPp (PP sends).
  std::array<double, kCommStreams + 1> sm_loss_s{};
  // Seconds the stage's TP/CP/EP collectives keep the network tier busy in one micro-batch's
  // forward and backward (LayerCost::net_fwd_s / net_bwd_s summed over the stage's layers).
  double net_fwd_s = 0, net_bwd_s = 0;
  double SmLoss() const {
    double s = 0;
    for (double v : sm_loss_s) s += v;
    return s;
  }
  // One micro-batch's communication left exposed on the stage (TP, CP, EP, ZeRO-3, PP sends).
  double ExposedS() const { return tp_s + cp_s + ep_s + zero3_s + p2p_s; }
};
inline constexpr int kSmLossPp = kCommStreams;

// All the time each stream's collectives run in the forward and in the backward of one
// micro-batch on one chunk (kCommTp ... kCommZero3, cost/layer_cost.h), hidden or not: what the
// trace draws (EvaluateChunkTimes; the estimate does not need it).
struct StageBusy {
  std::array<double, kCommStreams> fwd_s{};
  std::array<double, kCommStreams> bwd_s{};
  // Of the compute beside them, what each stream's kernels take by holding SMs (overlap_sm.h).
  std::array<double, kCommStreams> sm_loss_fwd_s{};
  std::array<double, kCommStreams> sm_loss_bwd_s{};
};

// Data-parallel work of one stage, once per step.
struct StageDp {
  double grad_s = 0;          // gradient all-reduce / reduce-scatter, all buckets
  double param_gather_s = 0;  // distributed-optimizer all-gather after the step (zero 1, 2)
  double zero3_gather_s = 0;  // ZeRO-3 all-gather of the stage's weights, one pass
  Zero3Comm zero3;            // ZeRO-3 per micro-batch, unit by unit (zero3_comm.h)
  int64_t buckets = 1;
  double optimizer_s = 0;
  double grad_accum_s = 0;  // per micro-batch, after its backward (kernels.fp32_grad_accum_pass)
  // Per micro-batch, in its backward: the earlier micro-batches' ZeRO-2 reductions
  // (kernels.zero2_micro_batch_reduce; cost/dp_comm.h Zero2MicroBatchReduceSeconds).
  double micro_batch_reduce_s = 0;
  double grad_exposed_s = 0;  // after overlap with the last micro-batch's backward
  double gather_exposed_s = 0;
  // SMs and NIC the DP stream (zero 0-2 buckets, the distributed optimizer's gather) shares
  // with compute: share = its NCCL kernels' CTAs / SMs; nic_rate_* = the fraction of the network
  // tier the last backward's / first forward's TP/CP/EP traffic leaves it (1 when they do not
  // cross the same NICs). grad_sm_loss_s / gather_sm_loss_s: compute lost beside the hidden
  // part; grad_exposed_s and gather_exposed_s include what of it lengthens the step.
  double sm_share = 0;
  bool shared_nic = false;  // the DP group crosses a network tier
  double nic_rate_fwd = 1, nic_rate_bwd = 1;
  double grad_sm_loss_s = 0, gather_sm_loss_s = 0;
  double grad_comm_exposed_s = 0;  // the communication alone past the last backward
};

// One pipeline hop: the send of one micro-batch's activations (or gradients) between two
// neighbouring stages, on the tier the two ranks of every such pair share (PipelineHopTier).
struct PipelineHop {
  double s = 0;         // seconds of one send
  double sm_share = 0;  // SMs the send's NCCL kernel holds / SMs (cost/overlap_sm.h)
  int tier = 0;         // the network tier it crosses
};

struct PlanEvaluation {
  PlanShape shape;
  std::array<LayerCost, kLayerKinds> kinds{};
  std::array<bool, kLayerKinds> present{};
  double embed_fwd_s = 0, logits_fwd_s = 0, logits_bwd_s = 0;
  double mtp_proj_fwd_s = 0;  // one MTP module's 2h -> h projection, forward
  double p2p_s = 0;           // the slowest hop's send (max over hops)
  // hops[b]: between stage b and stage (b + 1) % pp; hops[pp - 1] is the interleaved schedule's
  // wrap from the last stage's chunk to the first stage's next chunk (pp > 1 only).
  StageVector<PipelineHop> hops;
  double amax_s =
      0;  // TE's delayed-scaling amax reduction + update, per chunk and pass (fp8_amax.h)
  double zero3_sm_share = 0;  // the same for ZeRO-3's per-layer gathers and reduce-scatters
  int64_t micro_batches = 1;
  StageVector<int64_t> layers;        // layers per stage
  StageVector<int64_t> begins;        // index of each stage's first layer (vpp = 1)
  StageVector<int64_t> chunk_layers;  // layers per virtual stage (pp*vpp, model order)
  StageVector<int64_t> chunk_begins;  // index of each virtual stage's first layer
  StageVector<std::array<int32_t, kLayerKinds>> counts;  // layers of each kind per stage
  int64_t mtp_chunk = -1;  // virtual stage holding the MTP modules, -1 = none
  StageVector<StageTimes> times;
  StageVector<StageComm> comm;
  StageVector<StageDp> dp;
  PipelineTime pipeline;
  double pp_comm_s = 0, dp_exposed_s = 0, optimizer_s = 0;
  // The slowest of the plan's GPUs (cost/straggler.h): the fraction it adds to the pipeline's
  // compute (its makespan less the slowest stage's exposed communication) and the seconds.
  double straggler_fraction = 0, straggler_s = 0;
  double step_s = 0;
};

// Times of every stage, DP/PP communication, optimizer and the step (no memory). `links` is
// ResolveNetworkLinks(cluster), resolved once by the caller.
void EvaluatePlanTime(const CostGraph& dims, const Cluster& cluster, const NetworkLinks& links,
                      const ParallelPlan& plan, PlanEvaluation* out);

// The hop stage `stage`'s sends of one micro-batch take, forward (activations to the next stage)
// or backward (gradients to the previous one); the last stage's forward and the first stage's
// backward take their only neighbour's hop without interleaving (they are charged a send like
// every stage; the simulator sends only where a receiver exists).
const PipelineHop& StageSendHop(const ParallelPlan& plan, const PlanEvaluation& eval, int64_t stage,
                                bool forward);

// Layer and embedding/logits costs and the layers per stage only (what memory needs).
void EvaluatePlanLayers(const CostGraph& dims, const Cluster& cluster, const NetworkLinks& links,
                        const ParallelPlan& plan, PlanEvaluation* out);

// What EvaluatePlanLayers computes first: the plan's shape and the cost of one layer of each kind
// the model has (its MTP kind included). It depends only on the knobs MakePlanShape reads, so a
// caller may compute it once and reuse it for every plan that differs in the other knobs (ZeRO,
// schedules other than DualPipe, DP and PP knobs): the search does (search_core.cpp).
struct PlanLayerCosts {
  PlanShape shape;
  std::array<LayerCost, kLayerKinds> kinds{};
  std::array<bool, kLayerKinds> present{};
};
PlanLayerCosts ComputePlanLayerCosts(const CostGraph& dims, const Cluster& cluster,
                                     const NetworkLinks& links, const ParallelPlan& plan);
// The same with the plan's groups already placed (PlacePlan(plan, cluster)).
PlanLayerCosts ComputePlanLayerCosts(const CostGraph& dims, const Cluster& cluster,
                                     const NetworkLinks& links, const ParallelPlan& plan,
                                     const PlanPlacement& groups);

// EvaluatePlanLayers with the layer costs already computed for the same MakePlanShape knobs: the
// same result, bit for bit.
void EvaluatePlanLayers(const CostGraph& dims, const Cluster& cluster, const NetworkLinks& links,
                        const ParallelPlan& plan, const PlanLayerCosts& layers,
                        PlanEvaluation* out);

// The rest of EvaluatePlanTime on an evaluation EvaluatePlanLayers filled (what memory needs is
// unchanged): EvaluatePlanLayers + EvaluatePlanTimeAfterLayers = EvaluatePlanTime. `classes`,
// when given, are StageClassesOf(plan, *out) (found once for a layout several plans share): the
// same result, bit for bit, without looking at every stage's key; without them they are found
// here.
void EvaluatePlanTimeAfterLayers(const CostGraph& dims, const Cluster& cluster,
                                 const NetworkLinks& links, const ParallelPlan& plan,
                                 PlanEvaluation* out, const StageClasses* classes = nullptr);

}  // namespace paraplan
