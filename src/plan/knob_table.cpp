// The knob table (knob_table.h). The rules and layer-cost bits of the searched knobs drive the
// search's caches (a wrong bit gives a wrong answer, tested by tests/search/knob_property_test);
// the memory, step and export bits say where a knob takes effect. A bool of the kernel or memory
// recipe names its member here (KernelSwitch / MemorySwitch, recipe_switch.h): that is all the
// loader, the plan string and the step-result JSON need of it.
#include "plan/knob_table.h"

namespace paraplan {
namespace {

constexpr unsigned R = kReadByRules;
constexpr unsigned M = kReadByMemory;
constexpr unsigned L = kReadByLayerCost;
constexpr unsigned S = kReadByStep;
constexpr unsigned X = kReadByExports;
constexpr unsigned kShape = R | M | L | S | X;  // a parallel size: every stage
constexpr unsigned kLayout = R | M | S | X;     // where the stage boundaries fall

constexpr std::array<KnobRow, kKnobs> kTable = {{
    {Knob::kTp, "tp", true, kShape},
    {Knob::kPp, "pp", true, kShape},
    {Knob::kDp, "dp", true, kShape},
    {Knob::kCp, "cp", true, kShape},
    {Knob::kEp, "ep", true, kShape},
    {Knob::kEtp, "etp", true, kShape},
    {Knob::kVpp, "vpp", true, R | M | S | X},
    {Knob::kMicroBatch, "micro_batch", true, R | M | L | S | X},
    {Knob::kGlobalBatch, "global_batch", true, R | S | X},
    {Knob::kSeqLen, "seq_len", true, R | M | L | S},
    // The rules never read recompute (cost/layer_cost and activation_terms do).
    {Knob::kRecompute, "recompute", true, M | L | S | X},
    {Knob::kSequenceParallel, "sequence_parallel", true, R | M | L | S | X},
    {Knob::kZero, "zero", true, R | M | S | X},
    {Knob::kPrecision, "precision", true, R | M | L | S | X},
    // The layer cost reads only whether the schedule is DualPipe (the search keys that apart).
    {Knob::kSchedule, "schedule", true, R | M | L | S | X},
    // The rules read the routing under moe_pad_to_capacity (padding needs dropping).
    {Knob::kMoeRouting, "moe_routing", true, R | L | X},
    {Knob::kMoeCapacityFactor, "moe_capacity_factor", true, R | L | X},
    {Knob::kMoeImbalance, "moe_imbalance", true, R | L},
    {Knob::kDpCommDtype, "dp_comm_dtype", true, S},
    {Knob::kGradReduceInFp32, "grad_reduce_in_fp32", true, M | S | X},
    {Knob::kDpBucketMB, "dp_bucket_MB", true, R | M | S | X},
    {Knob::kPlacement, "placement", true, R | L | S},
    {Knob::kPpLayers, "pp_layers", false, kLayout},
    {Knob::kOverlapGradReduce, "overlap_grad_reduce", true, S | X},
    {Knob::kOverlapParamGather, "overlap_param_gather", true, S | X},
    {Knob::kOverlapTpComm, "overlap_tp_comm", true, L | X},
    {Knob::kOverlapEpComm, "overlap_ep_comm", true, L | X},
    {Knob::kOverlapPpComm, "overlap_pp_comm", true, S | X},
    {Knob::kZero3KeepGathered, "zero3_keep_gathered", true, M | S},
    {Knob::kPpLayout, "pp_layout", false, kLayout},
    {Knob::kPpSplitPoints, "pp_split_points", false, kLayout},
    {Knob::kPpFirstLayers, "pp_first_layers", false, kLayout},
    {Knob::kPpLastLayers, "pp_last_layers", false, kLayout},
    {Knob::kPpAccountEmbedding, "pp_account_embedding", false, kLayout},
    {Knob::kPpAccountLoss, "pp_account_loss", false, kLayout},
    {Knob::kPpEvenSplit, "pp_even_split", false, kLayout},
    {Knob::kRecomputeModules, "recompute_modules", false, M | L | S | X},
    {Knob::kFp8ActCache, "fp8_act_cache", false, M | L, MemorySwitch(&MemoryRecipe::fp8_act_cache)},
    {Knob::kCrossEntropyFusion, "cross_entropy_fusion", false, M,
     MemorySwitch(&MemoryRecipe::cross_entropy_fusion)},
    {Knob::kOptimizerMoments, "optimizer_moments", false, M | S},
    {Knob::kOptimizerOffload, "optimizer_offload", false, R | M | S},
    {Knob::kMoeProbs, "moe_probs", false, R | M | L | X},
    {Knob::kEma, "ema", false, M | S},
    {Knob::kFusion, "fusion", false, M | L | X},
    {Knob::kCudaGraphs, "cuda_graphs", false, L | S | X,
     KernelSwitch(&KernelRecipe::cuda_graphs, SwitchJson::kAlways)},
    {Knob::kPpLockstep, "pp_lockstep", false, S, KernelSwitch(&KernelRecipe::pp_lockstep)},
    {Knob::kRepeatKv, "repeat_kv", false, M | L, KernelSwitch(&KernelRecipe::repeat_kv)},
    {Knob::kZero1AllReduce, "zero1_all_reduce", false, S,
     KernelSwitch(&KernelRecipe::zero1_all_reduce)},
    {Knob::kZero1Broadcast, "zero1_broadcast", false, S,
     KernelSwitch(&KernelRecipe::zero1_broadcast)},
    {Knob::kFp32GradAccumPass, "fp32_grad_accum_pass", false, S,
     KernelSwitch(&KernelRecipe::fp32_grad_accum_pass)},
    {Knob::kMegatronDdpBuckets, "megatron_ddp_buckets", false, S,
     KernelSwitch(&KernelRecipe::megatron_ddp_buckets)},
    {Knob::kFusedNorm, "fused_norm", false, L, KernelSwitch(&KernelRecipe::fused_norm)},
    {Knob::kSpDim1Copies, "sp_dim1_copies", false, L, KernelSwitch(&KernelRecipe::sp_dim1_copies)},
    {Knob::kSdpaCudnn, "sdpa_cudnn", false, L, KernelSwitch(&KernelRecipe::sdpa_cudnn)},
    {Knob::kFlashAttn2, "flash_attn2", false, L, KernelSwitch(&KernelRecipe::flash_attn2)},
    {Knob::kFlashAttnTriton, "flash_attn_triton", false, L | M,
     KernelSwitch(&KernelRecipe::flash_attn_triton)},
    {Knob::kFsdpFloat8AllGather, "fsdp_float8_all_gather", false, L | S,
     KernelSwitch(&KernelRecipe::fsdp_float8_all_gather)},
    {Knob::kMoeGroupedGemm, "moe_grouped_gemm", false, L | X,
     KernelSwitch(&KernelRecipe::moe_grouped_gemm, SwitchJson::kMoeGroup)},
    {Knob::kMoeRouterFusion, "moe_router_fusion", false, L | X,
     KernelSwitch(&KernelRecipe::moe_router_fusion, SwitchJson::kMoeGroup)},
    {Knob::kMoePermuteFusion, "moe_permute_fusion", false, L | X,
     KernelSwitch(&KernelRecipe::moe_permute_fusion, SwitchJson::kMoeGroup)},
    {Knob::kMoePadToCapacity, "moe_pad_to_capacity", false, R | L | X,
     KernelSwitch(&KernelRecipe::moe_pad_to_capacity, SwitchJson::kMoeGroup)},
    {Knob::kMoeDeepep, "moe_deepep", false, L | X,
     KernelSwitch(&KernelRecipe::moe_deepep, SwitchJson::kMoeGroup)},
    {Knob::kMoeHybridep, "moe_hybridep", false, L | X,
     KernelSwitch(&KernelRecipe::moe_hybridep, SwitchJson::kMoeGroup)},
    {Knob::kZero3MaxLiveParams, "zero3_max_live_params", false, S},
    {Knob::kZero3MaxReuseDistance, "zero3_max_reuse_distance", false, S},
    // The casts are layer ops; the amax reductions are charged per chunk (cost/fp8_amax.h).
    {Knob::kFp8Recipe, "fp8_recipe", false, L | S | X},
    {Knob::kZeroBucketAllReduce, "zero_bucket_all_reduce", false, S,
     KernelSwitch(&KernelRecipe::zero_bucket_all_reduce)},
    {Knob::kZero2MicroBatchReduce, "zero2_micro_batch_reduce", false, S,
     KernelSwitch(&KernelRecipe::zero2_micro_batch_reduce)},
    {Knob::kDpReduceFp32Copy, "dp_reduce_fp32_copy", false, S,
     KernelSwitch(&KernelRecipe::dp_reduce_fp32_copy)},
    {Knob::kMoeTorchGroupedMm, "moe_torch_grouped_mm", false, L,
     KernelSwitch(&KernelRecipe::moe_torch_grouped_mm)},
    // The attention core's span (cost/plan_shape.h AttentionSpan); the rules refuse it with cp > 1.
    {Knob::kPackedDocTokens, "packed_doc_tokens", false, R | M | L},
    {Knob::kZero3KeepAfterForward, "zero3_keep_after_forward", false, M | S,
     KernelSwitch(&KernelRecipe::zero3_keep_after_forward)},
    {Knob::kRecomputeEarlyStop, "recompute_early_stop", false, L,
     KernelSwitch(&KernelRecipe::recompute_early_stop)},
    {Knob::kFsdp1, "fsdp1", false, S, KernelSwitch(&KernelRecipe::fsdp1)},
}};

constexpr bool InOrder() {
  for (size_t i = 0; i < kKnobs; ++i) {
    if (static_cast<size_t>(kTable[i].knob) != i) return false;
  }
  return true;
}
static_assert(InOrder(), "the knob table lists the knobs in Knob order");

// A recipe switch names one member and is never searched (a recipe is one fixed value per plan).
constexpr bool SwitchesWellFormed() {
  for (const KnobRow& row : kTable) {
    const RecipeSwitch& s = row.recipe_switch;
    if (s.kernels != nullptr && s.memory != nullptr) return false;
    if (s.IsSwitch() && row.searched) return false;
  }
  return true;
}
static_assert(SwitchesWellFormed(), "a recipe switch sets one member and is not searched");

}  // namespace

const std::array<KnobRow, kKnobs>& KnobTable() {
  return kTable;
}

}  // namespace paraplan
