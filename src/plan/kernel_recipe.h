// How a framework turns a layer into kernels (issue 14): which element-wise ops it fuses and how
// the host launches them. One fixed value per plan, set by the user (`fusion`, `cuda_graphs`) or
// by the framework a published run names; never searched and never fitted. What each profile
// fuses, with the framework code it reads, is in docs/framework-fusion.md; the bytes and kernel
// counts it implies are costed by cost/elementwise_cost.h.
#pragma once

#include "core/name_table.h"

namespace paraplan {

enum class Fusion {
  kTe,       // Megatron-Core with TransformerEngine (Megatron-LM ≥ 2023, NeMo, Megatron-Bridge)
  kApex,     // Megatron-LM 2020-22 / Megatron-DeepSpeed: apex and jit fused kernels, no Flash
  kEager,    // PyTorch eager (torchtitan without torch.compile): one kernel per ATen op
  kCompile,  // torch.compile (Inductor): element-wise chains fused per region
};

// TransformerEngine's FP8 scaling recipe (Megatron-Core's --fp8-recipe, NeMo's fp8_recipe;
// megatron/core/fp8_utils.py maps each to a TE recipe). What each costs beyond the GEMMs is in
// cost/elementwise_cost.cpp (the casts) and cost/fp8_amax.h (the amax reductions);
// docs/cost-model.md, "FP8 scaling bookkeeping".
enum class Fp8Recipe {
  kDelayed,     // DelayedScaling: scales from the previous steps' amax history (the default)
  kTensorwise,  // Float8CurrentScaling: each cast first reduces its own input's amax
  kMxfp8,       // MXFP8BlockScaling (Blackwell): a power-of-two scale per 32 elements, row- and
                // column-wise copies quantized from the bf16 source
};

// DeepSpeed's defaults for ZeRO-3's coordinator limits, in elements (deepspeed/runtime/zero/
// config.py: stage3_max_live_parameters and stage3_max_reuse_distance, v0.6.2 constants.py and
// v0.16 DeepSpeedZeroConfig alike; cost/zero3_fetch.h).
inline constexpr double kDeepSpeedMaxLiveParams = 1e9;
inline constexpr double kDeepSpeedMaxReuseDistance = 1e9;

// The MoE layer's kernels as Megatron-Core's flags choose them (megatron/core/transformer/
// transformer_config.py; docs/framework-fusion.md, "MoE layer"):
//  moe_grouped_gemm   --moe-grouped-gemm: the local experts' GEMMs as one grouped GEMM
//                     (TEGroupedMLP / GroupedMLP); false runs SequentialMLP, one GEMM and one
//                     activation kernel per local expert.
//  moe_router_fusion  --moe-router-fusion (Megatron-Core >= 0.14, TE >= 2.6): the router's score
//                     function, top-k and aux-loss pieces in TE's fused kernels.
//  moe_permute_fusion --moe-permute-fusion (TE >= 2.1): TE's fused token permute / unpermute /
//                     chunk sort instead of masked_select, index_select and scatter_add.
//  moe_pad_to_capacity --moe-pad-expert-input-to-capacity (with moe_routing=drop): every expert
//                     gets exactly capacity = capacity factor x its mean tokens, so the
//                     dispatcher knows every size on the host and never synchronises.
//  moe_deepep         --moe-token-dispatcher-type flex --moe-enable-deepep (Megatron-Core >=
//                     0.12): DeepEP's two-hop dispatch and combine (cost/moe_dispatch.h) instead
//                     of the alltoall dispatcher's NCCL all-to-all; DualPipe plans always use it.
//  moe_hybridep       --moe-token-dispatcher-type flex --moe-flex-dispatcher-backend hybridep
//                     (Megatron-Core; NeMo AutoModel's `dispatcher: hybridep`): NVIDIA's HybridEP,
//                     the same two-hop topology as DeepEP with TMA copies at its own measured
//                     rates, the expert permute fused into the dispatch (cost/deepep_rates.h).
//                     Takes precedence over moe_deepep.
struct KernelRecipe {
  Fusion fusion = Fusion::kTe;
  bool cuda_graphs = false;  // kernels replayed from a CUDA graph: no per-kernel host launch
  bool moe_grouped_gemm = true;
  bool moe_router_fusion = false;
  bool moe_permute_fusion = false;
  bool moe_pad_to_capacity = false;
  bool moe_deepep = false;
  bool moe_hybridep = false;
  // The routed experts run PyTorch's torch._grouped_mm under a Transformer Engine profile (NeMo
  // AutoModel's `model.backend.experts: torch_mm`): one kernel per grouped call instead of TE's
  // per-expert cuBLAS loop, at gpu.measured.torch_grouped_mm where the hardware file has it
  // (cost/torch_grouped_mm.h). Implied by moe_grouped_gemm under the PyTorch profiles.
  bool moe_torch_grouped_mm = false;
  // The pipeline runtime of torch.distributed.pipelining's multi-stage schedules as PyTorch
  // shipped it until ScheduleInterleaved1F1B moved to _PipelineScheduleRuntime (torchtitan's Dec
  // 2024 runs): every rank walks a grid of time steps and waits at the end of each on that
  // step's batched sends and receives (sim/pipeline_run_lockstep.cpp). Interleaved only.
  bool pp_lockstep = false;
  // The model code repeats the K/V heads up to the query heads before the attention kernel
  // (torchtitan's Llama `repeat_kv`, Dec 2024, calling SDPA without enable_gqa): the
  // copy is an op, and context parallelism passes and accumulates K/V and their gradients at
  // the query heads (cost/elementwise_cost.cpp, AttentionKvHeads in cost/layer_cost.h).
  bool repeat_kv = false;
  // ZeRO-1 reduces the whole gradient buffer with one all-reduce after the last backward, each
  // rank then updating its shard and all-gathering the parameters in one call (nanotron c252843:
  // GradientAccumulator.sync_gradients_across_dp with reduce_scatter=False, "too memory hungry",
  // src/nanotron/trainer.py; cost/dp_comm.cpp). zero=1 only; false reduce-scatters in buckets.
  bool zero1_all_reduce = false;
  // ZeRO-1/2 all-reduce each gradient bucket over the data-parallel group and every rank keeps its
  // own partition's slice, instead of reduce-scattering the bucket: DeepSpeed from v0.12.4
  // (commit 2afa1c7f2, "Communication Optimization for Large-Scale Training") with its default
  // zero_optimization.use_multi_rank_bucket_allreduce = true (deepspeed/runtime/zero/
  // stage_1_and_2.py at v0.16.0: average_tensor -> allreduce_and_scatter ->
  // allreduce_and_copy_with_multiple_ranks -> allreduce_bucket -> dist.all_reduce). Twice a
  // reduce-scatter's bytes per rank; buckets, overlap and memory as before (cost/dp_comm.cpp).
  bool zero_bucket_all_reduce = false;
  // ZeRO-2 reduces the gradients after every micro-batch's backward, not only at the
  // gradient-accumulation boundary: its gradients are partitioned, so each micro-batch's must
  // be reduced before the next one's overwrite them (DeepSpeed v0.6.2 to 2025, zero/
  // stage_1_and_2.py reduce_ready_partitions_and_remove_grads: `if self.partition_gradients or
  // self.is_gradient_accumulation_boundary`; engine.py allreduce_gradients: "ZeRO stage >= 2
  // communicates during non gradient accumulation boundaries as well"). ZeRO-1 reduces at the
  // boundary only. Each earlier micro-batch's reduction is charged in its backward as the last
  // one's exposure (cost/dp_comm.cpp Zero2MicroBatchReduceSeconds). zero=2 only.
  bool zero2_micro_batch_reduce = false;
  // ZeRO-3 keeps each unit's gathered weights from its forward to its backward: PyTorch FSDP2's
  // fully_shard(reshard_after_forward=False) (torch/distributed/fsdp/_fully_shard; the backward's
  // pre-hook finds the unit unsharded, and post_backward reshards it, so every micro-batch gathers
  // once and reduce-scatters once). NeMo AutoModel's MoE parallelizer defaults to it at 8d9bfb90
  // (2025-10-08; nemo_automodel/components/moe/parallelizer.py apply_fsdp/parallelize_model
  // `reshard_after_forward: bool = False`; examples/benchmark/configs deepseek_v3_te_deepep*.yaml
  // state it, gptoss_120b_te_deepep.yaml states true). The backward's re-gathers and their FSDP2
  // copy-outs go, and the stage's unsharded bf16 weights are held from the forward to the backward
  // (cost/dp_comm.cpp, cost/stage_memory.cpp). zero=3 with FSDP's unit-by-unit gathers only
  // (not DeepSpeed's coordinator, not zero3_keep_gathered, which already gathers once per step).
  bool zero3_keep_after_forward = false;
  // The DP reduction all-reduces an fp32 copy of each bf16 gradient bucket and copies the result
  // back, the accumulation buffer staying bf16 (Aleph Alpha Scaling 737f855,
  // src/scaling/core/optimizer/allreduce.py: allreduce_and_copy -> allreduce_bucket flattens the
  // bucket's gradients, divides by dp, allreduce_tensor_in_float32 casts with .to(torch.float32),
  // all-reduces and copy_s back, then each gradient is copied out of the flat tensor).
  // dp_comm_dtype fp32 then moves 4 B per element although grad_reduce_in_fp32 is false
  // (DpGradCommDtype), and the five element-wise passes are memory-bound ops of the step
  // (cost/dp_comm.cpp).
  bool dp_reduce_fp32_copy = false;
  // ZeRO-1 as InternLM's HybridZeroOptimizer runs it at c18bec9 (2023-07-08;
  // internlm/solver/optimizer/hybrid_zero_optim.py): every gradient bucket is all-reduced over the
  // DP group (reduce_tensor with dst_rank None), not reduce-scattered, and after the step each
  // ZeRO rank's updated bf16 shard goes to the others by its own dist.broadcast (broadcast_params,
  // one call per ZeRO rank, waited before the next forward): dp broadcasts of 1/dp of the
  // parameters each, so the ring latency is paid dp times (cost/dp_comm.cpp). zero=1 only.
  bool zero1_broadcast = false;
  // After every micro-batch's backward the host adds each parameter's bf16 gradient into its fp32
  // accumulation buffer, one add_ per tensor, on the compute stream (nanotron c252843:
  // FP32GradientAccumulator.backward -> _accumulate_grad, fp32_grad.add_(half_param.grad),
  // src/nanotron/optim/gradient_accumulator.py; cost/stage_times.cpp). Megatron-LM's wgrad GEMM
  // accumulates into main_grad instead (gradient_accumulation_fusion): no pass.
  bool fp32_grad_accum_pass = false;
  // Megatron-Core's DDP bucketing (megatron/core/distributed/distributed_data_parallel.py: bucket
  // size max(40M, 1M x dp) parameters at 5d745a7 (2023-10) and d98e8a6, set to None unless
  // overlap_grad_reduce and on pipeline ranks after the first; training.py disable_bucketing for
  // model chunks after the first): the gradients (and the distributed optimizer's parameter
  // gather) go in one call per model chunk without overlap_grad_reduce and on every stage but
  // the first, in DpBucketBytes buckets otherwise (cost/dp_comm.cpp, DpBucketCount). Megatron-LM
  // 2021's contiguous-buffer DDP all-reduced the whole buffer at once, the same count.
  bool megatron_ddp_buckets = false;
  // The norm runs as one fused kernel (reads x, writes y: 4 B per element in bf16) whatever the
  // fusion profile (a hand-written RMSNorm kernel in an otherwise eager PyTorch layer: Aleph Alpha
  // Scaling's "flash_attention2 + RMS kernel" runs, Hagemann et al. 2023;
  // cost/elementwise_cost.cpp).
  bool fused_norm = false;
  // Sequence-parallel TP through PyTorch's functional collectives, which gather and scatter along
  // dim 0 while DTensor's sequence shards are dim 1: every synchronous TP all-gather and
  // reduce-scatter adds a full-size torch.cat copy (torch/distributed/_functional_collectives.py;
  // torchtitan's TP; cost/elementwise_cost.cpp, SequenceParallelCopies).
  bool sp_dim1_copies = false;
  // PyTorch's SDPA dispatched to cuDNN's fused attention, not FlashAttention-2 (fusion eager /
  // compile only): priced at the GPU's fused-attention rate (attention_fwd / _bwd, cuDNN's
  // measured curve) instead of fa2_attention_fwd / _bwd (cost/layer_cost.cpp). PyTorch puts
  // cuDNN first on sm90 / sm100 when the runtime cuDNN is newer than 9.15.0
  // (aten/src/ATen/native/transformers/cuda/sdp_utils.cpp, check_prefer_cudnn_attention, at
  // pytorch/pytorch 001f694; TORCH_CUDNN_SDPA_DEPRIORITIZED turns it off), FlashAttention-2
  // first otherwise; a context manager (sdpa_kernel) overrides either. Stated per run from
  // its stack or a trace, not assumed from a version (docs/formats.md).
  bool sdpa_cudnn = false;
  // The core attention is Dao-AILab's FlashAttention-2 package called directly (flash_attn's
  // flash_attn_varlen_func: nanotron c252843, src/nanotron/models/llama.py CoreAttention) whatever
  // the fusion profile: priced at fa2_attention_fwd / _bwd where the GPU's family sets them,
  // not at the fused (cuDNN) rate TransformerEngine's profile implies (cost/layer_cost.cpp).
  bool flash_attn2 = false;
  // The core attention is flash-attn v1.0.4's Triton kernel (flash_attn/flash_attn_triton.py
  // `flash_attn_func`; Megatron-DeepSpeed's --use-flash-attn-triton, FlashSelfAttentionTriton at
  // cc3a94c6), whatever the fusion profile: FlashAttention-2's rate times the head dimension
  // padded to a power of two over FlashAttention-1's measured rate against FlashAttention-2
  // (cost/flash_attn_triton.h). Stated per run from its script.
  bool flash_attn_triton = false;
  // Full recompute as PyTorch's non-reentrant checkpoint runs it (torch.utils.checkpoint,
  // use_reentrant=False, which torchtitan's checkpoint_wrapper uses): the recomputed forward
  // stops as soon as every tensor the original forward saved for backward is back (the
  // recomputation's pack hook raises _StopRecomputationError at the last one; pytorch/pytorch
  // torch/utils/checkpoint.py @ 4b804b85, early stop on by default), and a compiled block's
  // partitioner recomputes only what the backward reads. A dense layer's MLP down projection
  // saves its input, not its output, so its forward GEMM is not redone (cost/layer_cost.cpp).
  // Megatron-LM's and DeepSpeed's checkpoints rerun the whole forward (reentrant).
  bool recompute_early_stop = false;
  // ZeRO-3 as PyTorch FSDP1 runs it (torch.distributed.fsdp.FullyShardedDataParallel, one
  // FlatParameter per wrapped unit; torch/distributed/fsdp/_flat_param.py @ 01caf79e, the
  // FlatParameter docstring): the all-gather writes into the unit's padded unsharded flat buffer
  // (_full_param_padded, "the all-gather destination and owns the unsharded parameter storage")
  // and the original parameters are views into it (_use_unsharded_views), so nothing is copied
  // out after a gather; the forward's views are tracked by autograd (_tensors), so the backward of
  // the split that made them concatenates the parameters' bf16 gradients into the flat gradient
  // (2 B read, 2 B written per parameter) and FSDP reduce-scatters that buffer, cast first where
  // MixedPrecision.reduce_dtype differs from the parameters' dtype. FSDP2 (the default of a
  // PyTorch profile) copies every gathered unit out and every gradient in (zero3_comm.h,
  // Fsdp2CopyBytes). Stated by runs on FSDP1 (IBM's fms-fsdp, ATorch's FSDP); zero=3 under a
  // PyTorch profile only.
  bool fsdp1 = false;
  // torchao's float8 all-gather under FSDP2 (torchtitan `enable_fsdp_float8_all_gather`; torchao
  // eab345c torchao/float8/fsdp_utils.py, WeightWithDynamicFloat8CastTensor): each Float8Linear
  // weight's 1/dp shard is cast to float8 before its all-gather (fsdp_pre_all_gather), FSDP2
  // gathers and copies out 1 B per element, and the gathered weight is not cast again
  // (tensor_already_casted_to_fp8). Off, every forward casts the whole gathered weight (amax and
  // cast). precision fp8 under fusion eager / compile with zero 3 only (cost/torchao_float8.h,
  // cost/dp_comm.cpp).
  bool fsdp_float8_all_gather = false;
  // TransformerEngine's FP8 recipe (read under precision fp8 with fusion te or apex only).
  Fp8Recipe fp8_recipe = Fp8Recipe::kDelayed;

  // ZeRO-3 as DeepSpeed's parameter coordinator issues it (cost/zero3_fetch.h): weights fetched
  // module by module, prefetched up to stage3_max_live_parameters gathered elements and released
  // unless reused within stage3_max_reuse_distance elements. 0 = unset; either one set selects
  // DeepSpeed's coordinator, the other then taking DeepSpeed's default (kDeepSpeedMax*); both unset
  // gather unit by unit as FSDP does (cost/zero3_comm.h). zero=3 only.
  double zero3_max_live_params = 0;
  double zero3_max_reuse_distance = 0;

  // Packed sequences attended document by document (variable-length attention): the data loader
  // packs several samples into each seq_len-token sequence and passes their boundaries to the
  // kernel (Megatron-Core's PackedSeqParams cu_seqlens, flash_attn_varlen_func, transformers'
  // position_ids), so a token attends only within its own sample. The value is the samples'
  // length-weighted mean, E[L²]/E[L] tokens: a token's causal context is then half of it on
  // average, as over sequences of that length (cost/plan_shape.h AttentionSpan). 0 = not packed:
  // the whole sequence is one document. cp = 1 only (plan/plan_rules.cpp).
  double packed_doc_tokens = 0;

  // Every bool member is a knob whose knob-table row names it (plan/recipe_switch.h; tested).
  bool operator==(const KernelRecipe&) const = default;
  bool IsDefault() const { return *this == KernelRecipe{}; }
  bool DeepSpeedZero3() const { return zero3_max_live_params > 0 || zero3_max_reuse_distance > 0; }
  bool FlashAttention() const { return fusion != Fusion::kApex || flash_attn_triton; }
  // PyTorch runs the layer (torchtitan, eager or compiled): SDPA's FlashAttention-2, torchtitan's
  // separate Linear per projection, torchao's float8 casts.
  bool Pytorch() const { return fusion == Fusion::kEager || fusion == Fusion::kCompile; }
};

const NameTable<Fusion>& FusionNames();
const char* ToString(Fusion v);
const NameTable<Fp8Recipe>& Fp8RecipeNames();
const char* ToString(Fp8Recipe v);

}  // namespace paraplan
