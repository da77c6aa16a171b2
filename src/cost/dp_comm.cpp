#include "cost/dp_comm.h"

#include <algorithm>
#include <cmath>

#include "core/as_double.h"
#include "cost/compute_cost.h"
#include "cost/elementwise_cost.h"
#include "cost/megatron_step_passes.h"
#include "cost/memory_model.h"
#include "cost/overlap_sm.h"
#include "cost/torchao_float8.h"
#include "cost/zero3_fetch.h"
#include "hardware/collective_cost.h"
#include "hardware/nccl_channels.h"

namespace paraplan {
namespace {

// Adam step traffic per parameter (fp32 master, grad, m, v read; master, m, v, bf16 copy
// written): 16 + 14 bytes with fp32 moments, 12 + 10 with bf16 moments.
double OptimizerTrafficBytes(MomentDtype moments) {
  const double m = moments == MomentDtype::kBf16 ? 2.0 : 4.0;
  return (4 + 4 + 2 * m) + (4 + 2 * m + 2);
}

// A stage's own exposed gradient reduction and parameter gather: Megatron-LM launches bucket
// reductions during the last micro-batch's backward and the distributed optimizer's gathers
// during the next forward.
// Interleaved: chunk j's gradients (j = 0 the last to finish) are ready during its last
// backward, pp chunk-backwards before chunk j - 1's (the cooldown runs pp micro-batches per
// chunk, Narayanan et al. SC'21 §2.2); the buckets queue on one DP stream. Returns the seconds
// the stream runs past the stage's last backward (what the simulator's DP tail computes).
double InterleavedGradExposed(const ParallelPlan& p, const StageTimes& t, const StageDp& dp,
                              double nic_rate) {
  const int64_t vpp = std::max<int64_t>(p.vpp, 1);
  // Before the stage's last backward ends the stream gets nic_rate of the NIC: in NIC-time
  // coordinates every ready time (all before the end) shrinks by that factor; after the end
  // NIC time is wall time. So the FIFO below runs on chunks of nic_rate x their length.
  const double chunk = nic_rate * (t.b + t.w) / D(vpp);
  const int64_t per_chunk = std::max<int64_t>(dp.buckets / vpp, 1);
  const int64_t total = vpp * per_chunk;
  const double bucket = dp.grad_s / D(total);
  // A FIFO of equal buckets ends at max_i (ready_i + (total - i) bucket). Bucket k (1-based) of
  // chunk j is ready at -j pp chunk - chunk + k chunk / per_chunk and is number
  // i = (vpp - 1 - j) per_chunk + k - 1; the expression is linear in j and in k, so its maximum
  // is at a corner.
  double end = 0;
  for (int64_t j : {int64_t{0}, vpp - 1}) {
    for (int64_t k : {int64_t{1}, per_chunk}) {
      const double ready = -D(j * p.pp) * chunk - chunk + chunk * D(k) / D(per_chunk);
      const int64_t i = (vpp - 1 - j) * per_chunk + k - 1;
      end = std::max(end, ready + D(total - i) * bucket);
    }
  }
  return end;
}

// The share of the NIC a pass of `busy_s` leaves the DP stream when its TP/CP/EP collectives
// keep the network tier busy for `net_s` of it (first-order time sharing of one link, as for
// ZeRO-3); 1 when the DP group does not cross the network.
double NicRate(bool shared, double net_s, double busy_s) {
  if (!shared || net_s <= 0 || busy_s <= 0) return 1.0;
  return std::max(0.0, 1.0 - net_s / busy_s);
}

}  // namespace

// NCCL's tuning model (src/graph/tuning.cc, ncclTopoTuneModel) costs a ring broadcast of S bytes
// over n ranks as nRanks latency steps (nNodes of them across nodes) plus S over the bus
// bandwidth (bus factor 1), and a ring all-gather of output B as nRanks - 1 steps (nNodes - 1
// across) plus (n - 1) / n B over the same bandwidth: the all-gather whose output is
// n / (n - 1) S moves the broadcast's bytes and pays one step fewer. InternLM's
// broadcast_params runs one broadcast per ZeRO rank, each of that rank's 1/n shard, queued on
// one communicator: n such calls.
bool Zero1Broadcasts(const ParallelPlan& p) {
  return p.zero == 1 && p.kernels.zero1_broadcast;
}

double ShardBroadcastCallBytes(double bytes, int64_t ranks) {
  if (ranks < 2) return 0.0;
  const double n = D(ranks);
  return bytes / n * n / (n - 1);
}

double ShardBroadcastsSeconds(double bytes, const GroupPlacement& g, const NetworkLinks& links) {
  if (bytes <= 0 || g.size < 2) return 0.0;
  return D(g.size) * CollectiveSeconds(CollectiveOp::kAllGather,
                                       ShardBroadcastCallBytes(bytes, g.size), g, links);
}

double CommDtypeBytes(CommDtype t) {
  switch (t) {
    case CommDtype::kFp32:
      return 4;
    case CommDtype::kBf16:
      return 2;
    case CommDtype::kFp8:
      return 1;
  }
  return 4;
}

CollectiveOp DpGradOp(const ParallelPlan& p) {
  if (p.zero == 0) return CollectiveOp::kAllReduce;
  if (p.zero == 1 && p.kernels.zero1_all_reduce) return CollectiveOp::kAllReduce;
  if (Zero1Broadcasts(p)) return CollectiveOp::kAllReduce;  // InternLM
  if ((p.zero == 1 || p.zero == 2) && p.kernels.zero_bucket_all_reduce) {
    return CollectiveOp::kAllReduce;
  }
  return CollectiveOp::kReduceScatter;
}

double DpBucketCount(const ParallelPlan& p, bool first_stage, double bytes, double bucket) {
  if (bytes <= 0) return 0.0;
  if (p.kernels.megatron_ddp_buckets && (!p.overlap_grad_reduce || !first_stage)) {
    return p.schedule == Schedule::kInterleaved ? D(std::max<int64_t>(p.vpp, 1)) : 1.0;
  }
  return std::ceil(bytes / std::max(bucket, 1.0));
}

double StageParamTensors(const CostGraph& d, const StageKey& key) {
  double tensors = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    tensors += key.counts[k] * (D(static_cast<int64_t>(d.gemms[k].size)) + 2);
  }
  if (key.first) tensors += 1;                                          // embedding
  if (key.last) tensors += d.tied_embeddings && key.first ? 1.0 : 2.0;  // final norm, head
  return tensors;
}

// nanotron c252843's ZeroDistributedOptimizer shards every parameter tensor over the DP ranks
// (src/nanotron/optim/zero.py, _partition_parameters: each rank a slice of each tensor) and its
// all_gather_coalesced (src/nanotron/distributed.py) flattens each rank's list of output slices
// (one torch.cat per rank), runs one dist.all_gather with a list of dp outputs (PyTorch's
// ProcessGroupNCCL gathers into one flat buffer and copies each rank's part out: one copy per
// rank), then update_output copies every slice back, one Tensor.copy_ per rank and tensor, all
// launched from Python inside optimizer.step(), with nothing to hide them. Each kernel costs the
// fitted kernel_launch_us; the bytes are three bf16 reads and writes of the stage's parameters.
GatherCopies Zero1GatherCopies(const Cluster& c, double tensors, double dense, int64_t dp) {
  GatherCopies g;
  if (dp < 2) return g;
  g.copies = D(dp) * tensors + 2 * D(dp);
  g.s = g.copies * EagerLaunchSeconds(c) + MemoryBoundSeconds(c, 3 * 2 * kAct * dense);
  return g;
}

// Scaling 737f855's allreduce_and_copy (src/scaling/core/optimizer/allreduce.py), per bucket:
// flatten_dense_tensors (one cat: read and write 2 B per element), div_ by dp (2 + 2), .to(float32)
// (2 + 4), the fp32 all-reduce, copy_ back (4 + 2), then one buf.copy_ per gradient tensor out of
// the flat result (2 + 2): 24 B per element (without ZeRO the buffer is the fp32 master gradient:
// 8 + 8 + 8, the same 24), four kernels per bucket and one per tensor, launched from Python
// inside optimizer.step() with nothing to hide them.
double Fp32CopyPassesSeconds(const Cluster& c, double tensors, double buckets, double params) {
  if (params <= 0) return 0.0;
  return (tensors + 4.0 * buckets) * EagerLaunchSeconds(c) + MemoryBoundSeconds(c, 24.0 * params);
}

// Gradient reduction, distributed-optimizer gather, ZeRO-3 gathers and optimizer of one stage.
GroupPlacement TiedEmbeddingPair(const ParallelPlan& p, const PlanShape& s, const Cluster& c) {
  return PlaceGroup(2, (p.pp - 1) * s.groups.pp.stride, c);
}

StageDp StageDataParallel(const Cluster& c, const NetworkLinks& links, const CostGraph& d,
                          const ParallelPlan& p, const PlanEvaluation& e, const StageKey& key,
                          double embed, double dense, double expert) {
  StageDp dp;
  const PlanShape& s = e.shape;
  const double dtype = CommDtypeBytes(DpGradCommDtype(p));
  // nanotron's ZeRO-1 (zero1_all_reduce): one all-reduce of the whole gradient buffer and one
  // all-gather of the updated parameters per group, no buckets (src/nanotron/optim/
  // gradient_accumulator.py, sync_gradients_across_dp; src/nanotron/optim/zero.py,
  // _all_gather_params).
  const bool whole = p.zero == 1 && p.kernels.zero1_all_reduce;
  // InternLM's HybridZeroOptimizer (zero1_broadcast): buckets all-reduced, shards broadcast.
  const bool broadcast = Zero1Broadcasts(p);
  const double bucket = std::max(DpBucketBytes(p), 1.0);
  const CollectiveOp grad_op = DpGradOp(p);
  auto bucketed = [&](CollectiveOp op, double bytes, const GroupPlacement& g, int64_t* count) {
    if (bytes <= 0 || g.size < 2) return 0.0;
    const double n = whole ? 1.0 : DpBucketCount(p, key.first, bytes, bucket);
    if (count) *count += static_cast<int64_t>(n);
    return n * CollectiveSeconds(op, bytes / n, g, links);
  };
  dp.buckets = 0;
  const double dense_grad = bucketed(grad_op, dense * dtype, s.groups.dp_cp, &dp.buckets);
  const double expert_grad = bucketed(grad_op, expert * dtype, s.groups.edp, &dp.buckets);
  dp.grad_s = dense_grad + expert_grad;
  // The SMs the bucket stream's NCCL kernels hold, time-weighted over the dense and expert
  // groups (NVLS kernels where NCCL picks NVLS for a bucket).
  auto share = [&](const GroupPlacement& g, double bytes) {
    if (bytes <= 0 || g.size < 2 || c.gpu.sm_count <= 0) return 0.0;
    const double one = whole ? bytes : std::min(bytes, bucket);
    return SmShare(NcclKernelCtas(grad_op, g, c, NcclPicksNvls(grad_op, one, g, links)), c.gpu);
  };
  if (dp.grad_s > 0) {
    dp.sm_share = (dense_grad * share(s.groups.dp_cp, dense * dtype) +
                   expert_grad * share(s.groups.edp, expert * dtype)) /
                  dp.grad_s;
  } else if (p.zero == 1 || p.zero == 2) {
    dp.sm_share = share(s.groups.dp_cp, dense * kAct);
  }
  dp.shared_nic = s.groups.dp_cp.tier >= 1 || s.groups.edp.tier >= 1;
  dp.buckets = std::max<int64_t>(dp.buckets, 1);
  // torchao's float8 all-gather moves the layers' dense weights in 1 B (cost/torchao_float8.h).
  const double layer_gather = p.zero == 3 ? FsdpLayerGatherBytesPerElement(s) : kAct;
  const double layer_dense = std::max(dense - embed, 0.0);
  const double dense_gather_bytes = layer_dense * layer_gather + (dense - layer_dense) * kAct;
  const double gather =
      bucketed(CollectiveOp::kAllGather, dense_gather_bytes, s.groups.dp_cp, nullptr) +
      bucketed(CollectiveOp::kAllGather, expert * kAct, s.groups.edp, nullptr);
  if (p.zero == 1 || p.zero == 2) dp.param_gather_s = gather;
  if (broadcast) {
    dp.param_gather_s = ShardBroadcastsSeconds(dense * kAct, s.groups.dp_cp, links) +
                        ShardBroadcastsSeconds(expert * kAct, s.groups.edp, links);
  }
  if (p.zero == 3 && p.zero3_keep_gathered) {
    dp.param_gather_s = gather;  // gathered once per step, like the distributed optimizer's
  } else if (p.zero == 3) {
    // Unit by unit, every micro-batch: the gradients go out with each micro-batch's backward.
    // DeepSpeed's coordinator fetches module by module (cost/zero3_fetch.h).
    dp.zero3 = p.kernels.DeepSpeedZero3()
                   ? DeepSpeedStageComm(d, p, key.counts, e.kinds, embed, s.groups.dp_cp,
                                        s.groups.edp, dtype, links)
                   : Zero3StageComm(key.counts, e.kinds, embed, s.groups.dp_cp, s.groups.edp, dtype,
                                    links, layer_gather);
    const double copied =
        (s.groups.dp_cp.size > 1 ? dense : 0.0) + (s.groups.edp.size > 1 ? expert : 0.0);
    if (p.kernels.DeepSpeedZero3()) {
      // DeepSpeed's engine (its coordinator named), whatever runs the layers: the gradients'
      // bucket copy, interleaving cat and pre-divide; a fetched parameter is gathered into its
      // own buffer (zero3_comm.h, DeepSpeedZero3GradCopyBytes).
      dp.zero3.copy_bwd_s = MemoryBoundSeconds(c, copied * DeepSpeedZero3GradCopyBytes(dtype));
    } else if (p.kernels.Pytorch()) {
      // FSDP2 copies every gathered unit out of its buffer and every gradient into the
      // reduce-scatter input on the compute stream (zero3_comm.h, Fsdp2CopyBytes).
      // The layers' weights copied out at the float8 all-gather's byte, the rest in bf16.
      // FSDP1 (kernels.fsdp1) gathers into the parameters' own flat storage: only the
      // gradients' concatenation (and cast) before each reduce-scatter (Fsdp1CopyBytes).
      const bool fsdp1 = p.kernels.fsdp1;
      const Fsdp2Copy bytes = fsdp1 ? Fsdp1CopyBytes(dtype) : Fsdp2CopyBytes(dtype);
      const Fsdp2Copy layer_bytes = fsdp1 ? bytes : Fsdp2CopyBytes(dtype, layer_gather);
      const double layer_copied = s.groups.dp_cp.size > 1 ? layer_dense : 0.0;
      const double rest = copied - layer_copied;
      // Kept from the forward, the backward copies no gathered unit out: only its gradients in.
      const bool kept = Zero3KeepsAfterForward(p);
      const double layer_bwd = layer_bytes.backward - (kept ? layer_bytes.forward : 0.0);
      const double rest_bwd = bytes.backward - (kept ? bytes.forward : 0.0);
      dp.zero3.copy_fwd_s =
          MemoryBoundSeconds(c, layer_copied * layer_bytes.forward + rest * bytes.forward);
      dp.zero3.copy_bwd_s = MemoryBoundSeconds(c, layer_copied * layer_bwd + rest * rest_bwd);
    }
    // FSDP2 without reshard after forward: the backward finds every unit gathered
    // (kernel_recipe.h, zero3_keep_after_forward).
    if (Zero3KeepsAfterForward(p)) dp.zero3.gather_bwd_s = 0;
    dp.zero3_gather_s = dp.zero3.gather_s;
    dp.grad_s = 0;
    dp.buckets = 1;
  }
  const double dense_shard = p.zero >= 1 ? D(s.groups.dp_cp.size) : 1.0;
  const double expert_shard = p.zero >= 1 ? D(s.groups.edp.size) : 1.0;
  const double local = dense / dense_shard + expert / expert_shard;
  const double offload = p.recipe.optimizer_offload;
  dp.optimizer_s = MemoryBoundSeconds(
      c, local * (1 - offload) * OptimizerTrafficBytes(p.recipe.optimizer_moments));
  // Megatron-Core's DDP and mixed-precision optimizer (zero 0 and its distributed optimizer):
  // the per-step memset of the gradient buffer and the optimizer's passes beside the Adam
  // kernel (cost/megatron_step_passes.h).
  if (p.kernels.megatron_ddp_buckets && p.zero <= 1) {
    dp.optimizer_s += MegatronStepPassesOf(c, dense + expert, local * (1 - offload),
                                           GradBufferBytes(p), p.recipe.optimizer_moments)
                          .Total();
  }
  // Tied embeddings split over the pipeline: the first stage's embedding and the last stage's
  // output layer hold the one weight twice, and every pipeline framework all-reduces its gradient
  // between the two after the data-parallel reduction and before the optimizer, blocking
  // (Megatron-LM d98e8a6 megatron/core/distributed/finalize_model_grads.py,
  // _allreduce_word_embedding_grads over the embedding group; NeMo v1.11.0
  // megatron_gpt_model.py, allreduce_first_last_embeddings). A two-rank all-reduce of the local
  // embedding's gradient (its accumulation dtype) between stage 0 and stage pp - 1; charged with
  // the optimizer on both, the first stage being the last to get there. A layout that puts the
  // embedding and the head on one stage (a V-shaped schedule) keeps both copies on one rank.
  if (d.tied_embeddings && p.pp > 1 && key.first != key.last && embed > 0) {
    dp.optimizer_s += CollectiveSeconds(CollectiveOp::kAllReduce, embed * dtype,
                                        TiedEmbeddingPair(p, s, c), links);
  }
  // nanotron's fp32 accumulation after every micro-batch's backward: one add_ per parameter
  // tensor launched from Python, each reading the bf16 gradient (2 B) and the fp32 buffer (4 B)
  // and writing the buffer (4 B) (src/nanotron/optim/gradient_accumulator.py, _accumulate_grad).
  if (p.kernels.fp32_grad_accum_pass) {
    dp.grad_accum_s = StageParamTensors(d, key) * EagerLaunchSeconds(c) +
                      MemoryBoundSeconds(c, (dense + expert) * (2.0 + 4.0 + 4.0));
  }
  if (p.kernels.dp_reduce_fp32_copy && s.groups.dp_cp.size > 1) {
    dp.optimizer_s +=
        Fp32CopyPassesSeconds(c, StageParamTensors(d, key), D(dp.buckets), dense + expert);
  }
  // nanotron's gather copies run inside optimizer.step(), after the all-gather.
  if (whole)
    dp.optimizer_s += Zero1GatherCopies(c, StageParamTensors(d, key), dense, s.groups.dp_cp.size).s;
  if (offload > 0 && c.gpu.host_link_GBps > 0) {
    // Megatron-LM's HybridDeviceOptimizer without --overlap-cpu-optimizer-d2h-h2d runs three
    // phases one after another (its README: "CPU Optimizer step, GPU gradient D2H and CPU
    // optimizer updated parameter H2D"), none under compute: the offloaded share's fp32
    // gradients go down the host link, the CPU's Adam streams its state through host DRAM (the
    // GPU step's bytes less the bf16 weight copy, made on the GPU), the fp32 parameters come
    // back up. The CPU step at the DRAM's datasheet bandwidth is a lower bound; without
    // gpu.host_memory_GBps it is not costed.
    const double offloaded = local * offload;
    dp.optimizer_s += 2 * offloaded * kGradBytes / (c.gpu.host_link_GBps * 1e9);
    if (c.gpu.host_memory_GBps > 0) {
      const double cpu_bytes = OptimizerTrafficBytes(p.recipe.optimizer_moments) - kWeightBytes;
      dp.optimizer_s += offloaded * cpu_bytes / (c.gpu.host_memory_GBps * 1e9);
    }
  }
  return dp;
}

void StageDpExposure(const ParallelPlan& p, const StageTimes& t, const StageComm& comm,
                     StageDp& dp) {
  const double vpp = D(std::max<int64_t>(p.vpp, 1));
  const double nb = D(dp.buckets);
  dp.nic_rate_bwd = NicRate(dp.shared_nic, comm.net_bwd_s, t.b + t.w);
  dp.nic_rate_fwd = NicRate(dp.shared_nic, comm.net_fwd_s, t.f);
  const double window = dp.nic_rate_bwd * (t.b + t.w) / vpp;
  double exposed = p.overlap_grad_reduce ? std::max(dp.grad_s / nb, dp.grad_s - window) : dp.grad_s;
  if (p.overlap_grad_reduce && p.schedule == Schedule::kInterleaved && p.vpp > 1 && dp.grad_s > 0) {
    exposed = InterleavedGradExposed(p, t, dp, dp.nic_rate_bwd);
  }
  exposed = std::min(std::max(exposed, 0.0), dp.grad_s);
  dp.grad_comm_exposed_s = exposed;
  // What ran before the last backward ended ran beside the compute, stretched by the NIC share:
  // the compute loses share x that wall time, and the step goes on after the later of the two
  // (the simulator's DP tail, sim/dp_tail.cpp, does the same bucket by bucket).
  const double hidden = dp.nic_rate_bwd > 0 ? (dp.grad_s - exposed) / dp.nic_rate_bwd : 0.0;
  dp.grad_sm_loss_s = hidden * dp.sm_share;
  dp.grad_exposed_s = std::max(exposed, dp.grad_sm_loss_s);
  const GatherWait g = ParamGatherWait(dp.param_gather_s, nb, t.f / vpp, dp.nic_rate_fwd,
                                       dp.sm_share, p.overlap_param_gather);
  dp.gather_sm_loss_s = g.sm_loss_s;
  dp.gather_exposed_s = g.wait_s + g.sm_loss_s;
}

bool Zero2ReducesEveryMicroBatch(const ParallelPlan& p) {
  return p.zero == 2 && p.kernels.zero2_micro_batch_reduce;
}

bool Zero3KeepsAfterForward(const ParallelPlan& p) {
  return p.zero == 3 && p.kernels.zero3_keep_after_forward && !p.zero3_keep_gathered &&
         !p.kernels.DeepSpeedZero3();
}

double Zero2MicroBatchReduceSeconds(const ParallelPlan& p, const StageDp& dp,
                                    int64_t micro_batches) {
  if (!Zero2ReducesEveryMicroBatch(p) || micro_batches < 2) return 0.0;
  return D(micro_batches - 1) / D(micro_batches) * dp.grad_exposed_s;
}

// Exposed DP communication of the step: stage s finishes its backward s stages before stage 0,
// which gives it slack.
void DataParallelExposure(const ParallelPlan& p, PlanEvaluation& e) {
  double grad = 0, gather = 0;
  const double vpp = D(std::max<int64_t>(p.vpp, 1));
  for (int64_t s = 0; s < p.pp; ++s) {
    const StageDp& dp = e.dp[s];
    const StageTimes& t = e.times[s];
    grad = std::max(grad, dp.grad_exposed_s - D(s) * (t.b + t.w) / vpp);
    gather = std::max(gather, dp.gather_exposed_s - D(s) * t.f / vpp);
    e.optimizer_s = std::max(e.optimizer_s, dp.optimizer_s);
  }
  e.dp_exposed_s = std::max(grad, 0.0) + std::max(gather, 0.0);
}

}  // namespace paraplan
