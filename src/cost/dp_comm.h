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

// The collective a gradient bucket (or nanotron's whole ZeRO-1 buffer) takes over the
// data-parallel group: an all-reduce without ZeRO, under nanotron's ZeRO-1 (zero1_all_reduce) and
// under DeepSpeed's ZeRO-1/2 (zero_bucket_all_reduce: each rank keeps its slice), else a
// reduce-scatter. ZeRO-3's per-unit reduce-scatters are cost/zero3_comm.h's.
CollectiveOp DpGradOp(const ParallelPlan& plan);

// The DP calls `bytes` of one stage's gradients (or gathered parameters) go in, `bucket` bytes
// each: ceil(bytes / bucket); under Megatron-Core's DDP (kernels.megatron_ddp_buckets) one call
// per model chunk without overlap_grad_reduce or off the first pipeline stage (`first_stage`
// false), as its DistributedDataParallel sets bucket_size None there. 0 for no bytes.
double DpBucketCount(const ParallelPlan& plan, bool first_stage, double bytes, double bucket);

// Gradient reduction, distributed-optimizer gather, ZeRO-3 gathers and optimizer of one stage
// holding `dense` and `expert` parameters on one GPU, `embed` of them the embedding's.
StageDp StageDataParallel(const Cluster& cluster, const NetworkLinks& links, const CostGraph& dims,
                          const ParallelPlan& plan, const PlanEvaluation& eval, const StageKey& key,
                          double embed, double dense, double expert);

// InternLM's ZeRO-1 (kernel_recipe.h, zero1_broadcast): gradient buckets all-reduced, updated
// shards broadcast.
bool Zero1Broadcasts(const ParallelPlan& plan);

// The output bytes of the all-gather that moves one rank's 1/ranks shard of `bytes` as a ring
// broadcast does (cost/dp_comm.cpp): bytes / (ranks - 1). 0 for fewer than two ranks.
double ShardBroadcastCallBytes(double bytes, int64_t ranks);

// InternLM's ZeRO-1 parameter sync: one NCCL broadcast per rank of `group`, each of 1/size of
// `bytes` (ShardBroadcastCallBytes), costed as NCCL's tuning model costs a ring broadcast
// (cost/dp_comm.cpp). 0 for a group of one.
double ShardBroadcastsSeconds(double bytes, const GroupPlacement& group, const NetworkLinks& links);

// The two ranks that hold a tied embedding split over the pipeline: stage 0's (the embedding) and
// stage pp - 1's (the output layer) at the same position in their stages, whose gradients are
// all-reduced once per step (Megatron-LM's embedding group; cost/dp_comm.cpp).
GroupPlacement TiedEmbeddingPair(const ParallelPlan& plan, const PlanShape& shape,
                                 const Cluster& cluster);

// The parameter tensors a stage holds: per layer one per weight GEMM and its two norms' weights,
// the embedding on the first stage, the final norm and the output layer on the last (the output
// layer is the embedding's tensor when tied on a one-stage pipeline).
double StageParamTensors(const CostGraph& dims, const StageKey& key);

// The host-launched copies of nanotron's all_gather_coalesced (src/nanotron/distributed.py) on a
// stage of `tensors` parameter tensors and `dense` parameters, gathered over `dp` ranks:
// `copies` kernels and the seconds they and their bytes take (cost/dp_comm.cpp).
struct GatherCopies {
  double copies = 0;
  double s = 0;
};
GatherCopies Zero1GatherCopies(const Cluster& cluster, double tensors, double dense, int64_t dp);

// Aleph Alpha Scaling's fp32 bucket copies (kernel_recipe.h, dp_reduce_fp32_copy) on a stage of
// `tensors` parameter tensors and `params` parameters reduced in `buckets` calls: the seconds of
// their five element-wise passes (24 B per parameter) and launches (cost/dp_comm.cpp).
double Fp32CopyPassesSeconds(const Cluster& cluster, double tensors, double buckets, double params);

// The stage's own exposed gradient reduction and parameter gather, given its times (into dp).
void StageDpExposure(const ParallelPlan& plan, const StageTimes& t, const StageComm& comm,
                     StageDp& dp);

// DeepSpeed's ZeRO-2 (kernels.zero2_micro_batch_reduce, zero=2): the gradients are reduced after
// every micro-batch's backward, not once per step.
bool Zero2ReducesEveryMicroBatch(const ParallelPlan& plan);

// FSDP's unit-by-unit ZeRO-3 that keeps each unit's weights gathered from its forward to its
// backward (kernels.zero3_keep_after_forward: FSDP2's reshard_after_forward=False): one gather
// and one reduce-scatter per micro-batch, none in the backward's gathers. Not under DeepSpeed's
// coordinator nor zero3_keep_gathered (which gathers once per step).
bool Zero3KeepsAfterForward(const ParallelPlan& plan);

// DeepSpeed's ZeRO-2 (kernels.zero2_micro_batch_reduce, zero=2): the earlier micro-batches'
// gradient reductions, per micro-batch, charged in the backward. Each of the m micro-batches
// reduces its gradients as the last one does (on the compute stream without overlap_comm; on
// the reduction stream with it, the epilogue synchronising before the next micro-batch), so each
// of the m − 1 earlier ones costs the last one's exposure, dp.grad_exposed_s; spread over the
// m backward passes: (m − 1) / m of it each. 0 for other plans or m = 1.
double Zero2MicroBatchReduceSeconds(const ParallelPlan& plan, const StageDp& dp,
                                    int64_t micro_batches);

// The step's exposed DP communication and optimizer over the stages (eval.dp_exposed_s,
// eval.optimizer_s).
void DataParallelExposure(const ParallelPlan& plan, PlanEvaluation& eval);

}  // namespace paraplan
