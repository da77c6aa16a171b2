// ParallelPlan: one fully fixed way to run a training step (DESIGN.md "Plan knobs").
// Megatron-LM's convention: gpus = tp × cp × dp × pp; experts are sharded ep-ways inside the
// dp × cp ranks (and etp-ways in tensor), so ep divides dp × cp.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "core/name_table.h"
#include "plan/kernel_recipe.h"
#include "plan/memory_recipe.h"
#include "plan/stage_layout_rule.h"

namespace paraplan {

// kSelective is Megatron-LM's (core attention recomputed); kOp is torchtitan's per-op selective
// activation checkpointing (selective_ac_option = "op": matmul outputs saved, every other one
// recomputed, with the non-matmul ops); kFull recomputes the whole layer from its input.
enum class Recompute { kNone, kSelective, kFull, kOp };
enum class Precision { kBf16, kFp16, kFp8 };
enum class Schedule { kGpipe, k1F1B, kInterleaved, kZeroBubble, kDualPipe };
enum class MoeRouting { kDropless, kDrop };
enum class CommDtype { kFp32, kBf16, kFp8 };
enum class ParallelDim { kTp, kCp, kEp, kDp, kPp };

struct ParallelPlan {
  int64_t tp = 1, pp = 1, dp = 1, cp = 1, ep = 1, etp = 1, vpp = 1;
  int64_t micro_batch = 1;
  int64_t global_batch = 1;  // sequences per step
  int64_t seq_len = 0;       // 0 = the model's seq_len
  Recompute recompute = Recompute::kNone;
  bool sequence_parallel = false;
  int zero = 0;  // 0..3; 1 = Megatron's distributed optimizer
  Precision precision = Precision::kBf16;
  Schedule schedule = Schedule::k1F1B;
  MoeRouting moe_routing = MoeRouting::kDropless;
  double moe_capacity_factor = 1.0;
  double moe_imbalance = 1.0;  // max/mean tokens per expert, ≥ 1
  CommDtype dp_comm_dtype = CommDtype::kFp32;
  // Megatron-Core's DistributedDataParallelConfig.grad_reduce_in_fp32: true keeps the gradient
  // buffer (main_grad) in fp32, false in the parameters' bf16 (NeMo's optim.grad_sync_dtype:
  // bf16), which also makes the DP reduction move bf16 (DpGradCommDtype). Under PyTorch FSDP2
  // (zero 3 with a PyTorch fusion profile) it is the reduce_dtype.
  bool grad_reduce_in_fp32 = true;
  double dp_bucket_MB = 0;  // 0 = auto, as Megatron-LM: see DpBucketBytes
  std::array<ParallelDim, 5> placement = {ParallelDim::kTp, ParallelDim::kCp, ParallelDim::kEp,
                                          ParallelDim::kDp, ParallelDim::kPp};
  // Layers per stage (pp entries) or per virtual stage (pp*vpp, model order); empty = balanced
  // automatically (plan/stage_layout.h).
  std::vector<int64_t> pp_layers;
  StageLayoutRule layout;  // Megatron-LM split flags, torchtitan split points, MTP placement
  MemoryRecipe recipe;     // recompute modules, FP8 activation caching, optimizer moments
  KernelRecipe kernels;    // the framework's fusion profile and CUDA graphs (kernel_recipe.h)
  bool overlap_grad_reduce = true;
  bool overlap_param_gather = true;
  bool overlap_tp_comm = false;
  bool overlap_ep_comm = false;
  bool overlap_pp_comm = true;
  // ZeRO-3 only: weights gathered once per step and kept until the last micro-batch's backward,
  // gradients accumulated unsharded (fp32) and reduce-scattered once (FSDP2 under PyTorch's
  // pipeline schedules, as torchtitan runs it with PP).
  bool zero3_keep_gathered = false;

  int64_t Gpus() const { return tp * cp * dp * pp; }
  // Micro-batches per step per pipeline (gradient-accumulation steps).
  int64_t MicroBatches() const { return global_batch / (micro_batch * dp); }
};

// Bytes of dp_comm_dtype per DP gradient bucket. dp_bucket_MB > 0 is taken as given; 0 (the
// default) follows Megatron-LM's DistributedDataParallel, max(40M, 1M × dp·cp) gradient elements
// per bucket, so that per-bucket latency does not grow with the data-parallel size.
double DpBucketBytes(const ParallelPlan& plan);

// The dtype the DP gradient reduction moves: dp_comm_dtype, but never wider than the gradient
// buffer it reduces (Megatron-Core reduces the buffer in place: param_and_grad_buffer.py, grad
// dtype = fp32 if grad_reduce_in_fp32 else the parameters' dtype), so bf16 when
// grad_reduce_in_fp32 is false and dp_comm_dtype is fp32 — unless the framework reduces an fp32
// copy of each bucket (kernels.dp_reduce_fp32_copy: Aleph Alpha Scaling).
CommDtype DpGradCommDtype(const ParallelPlan& plan);

// Names as they appear in files, flags and JSON ("1f1b", "selective", ...), one table per enum
// in the order messages list them; ToString and the plan loader read them.
const NameTable<Recompute>& RecomputeNames();
const NameTable<Precision>& PrecisionNames();
const NameTable<Schedule>& ScheduleNames();
const NameTable<MoeRouting>& MoeRoutingNames();
const NameTable<CommDtype>& CommDtypeNames();
const NameTable<ParallelDim>& ParallelDimNames();

const char* ToString(Recompute v);
const char* ToString(Precision v);
const char* ToString(Schedule v);
const char* ToString(MoeRouting v);
const char* ToString(CommDtype v);
const char* ToString(ParallelDim v);
std::string PlacementToString(const std::array<ParallelDim, 5>& placement);

}  // namespace paraplan
