#include "cost/elementwise_cost.h"

#include <algorithm>

#include "cost/moe_ops.h"
#include "cost/te_context_parallel.h"
#include "cost/torch_grouped_mm.h"
#include "cost/torchao_float8.h"

namespace paraplan {

namespace {

// Backward of an element-wise op reads what its forward saved and the output gradient and
// writes the input gradient: twice the forward's traffic and kernels (docs/framework-fusion.md).
constexpr double kBackwardFactor = 2.0;
// The device-side gap between dependent kernels replayed from a CUDA graph (no host launch).
constexpr double kGraphReplayGapUs = 1.0;

// Bytes per element and kernels of one op's forward under a profile.
struct PerElement {
  double bytes = 0;
  double kernels = 0;
};

struct Profile {
  PerElement norm, residual, rope, gated_act, act, squared_relu;
};

// What each framework runs per op (docs/framework-fusion.md gives the code each row reads):
//  norm: fused kernel r2 w2; eager torchtitan RMSNorm x.float() · rsqrt(x².mean()) → type_as ·
//    weight: seven kernels moving 36 B per element.
//  residual: r2 r2 w2 (apex adds the 1-byte dropout mask of bias-dropout-add); torch.compile
//    fuses it into the next norm, which then writes the sum as well (r4 w4 for both).
//  rope: fused r2 w2 per q/k element; eager view_as_complex(x.float()) · freqs → type_as: 20 B.
//  gated activation (per output element): fused silu(gate)·up r4 w2; eager silu then mul: 10 B.
const Profile& ProfileOf(Fusion fusion) {
  static const Profile kTe = {{4, 1}, {6, 1}, {4, 2}, {6, 1}, {4, 1}, {4, 1}};
  static const Profile kApex = {{4, 1}, {7, 1}, {4, 2}, {6, 1}, {4, 1}, {4, 1}};
  static const Profile kEager = {{36, 7}, {6, 1}, {20, 6}, {10, 2}, {4, 1}, {8, 2}};
  static const Profile kCompile = {{4, 1}, {4, 0}, {4, 1}, {6, 1}, {4, 1}, {4, 1}};
  switch (fusion) {
    case Fusion::kApex:
      return kApex;
    case Fusion::kEager:
      return kEager;
    case Fusion::kCompile:
      return kCompile;
    case Fusion::kTe:
      break;
  }
  return kTe;
}

ElementwiseOp MakeOp(const char* name, double elements, PerElement per) {
  return {name, elements * per.bytes, kBackwardFactor * elements * per.bytes, per.kernels,
          kBackwardFactor * per.kernels};
}

// Elements of the MLP's activation output (dense, or routed + shared experts of an MoE layer).
double ActivationElements(const CostGraph& d, int kind, const PlanShape& p) {
  if (!(kind & 1)) return p.tokens * d.ffn / p.tp;
  const double routed = RoutedTokens(d, p);
  double out = routed * d.expert_ffn / p.etp;
  if (d.shared_experts > 0) out += p.tokens * d.shared_experts * d.expert_ffn / p.tp;
  return out;
}

// The routed experts run as grouped calls (Megatron-Core's grouped MLP, torch._grouped_mm), not
// one module per local expert (SequentialMLP).
bool GroupedExpertCalls(const KernelRecipe& k) {
  return k.moe_grouped_gemm || k.moe_torch_grouped_mm;
}

}  // namespace

TeFp8Recipe TeFp8RecipeBytes(Fp8Recipe recipe, bool input_all_gather, bool any_layout) {
  if (recipe == Fp8Recipe::kMxfp8) {
    // One quantize kernel writes the row-wise and column-wise copies and a 1-byte E8M0 scale per
    // 32 elements of each (r2 w1 w1 + 2/32): the blocks run along the other dimension, so even a
    // GPU that takes any layout needs both. The norm writes bf16 (TE's unfused path unless
    // NVTE_NORM_FWD_USE_CUDNN), then that quantize; the column-wise copy is gathered, never
    // transposed.
    const double mx = 4 + 2.0 / kMxfp8BlockElements;
    return {mx, 1, mx, 0, 1, 0};
  }
  // Per-tensor scaling: on a GPU whose FP8 GEMMs take any operand layout (Blackwell) TE writes
  // the row-wise copy only (quantizer.cpp: with_transpose = columnwise_usage &&
  // !nvte_is_non_tn_fp8_gemm_supported()) and transposes nothing; on Hopper (TN only) it writes
  // the transpose beside it.
  const double copies = any_layout ? 1 : 2;
  if (recipe == Fp8Recipe::kTensorwise) {
    // nvte_compute_amax (r2), nvte_compute_scale_from_amax, nvte_quantize_v2 (r2 w1 [w1]). The
    // norm writes bf16 and its amax (the unfused path), then one cast: row-wise only (r2 w1) when
    // the input is all-gathered, the transpose of the gathered fp8 staying in the backward; else
    // both copies and no backward transpose.
    const bool one_copy = input_all_gather || any_layout;
    const double transpose = input_all_gather && !any_layout ? 1 : 0;
    return {4 + copies, 3, one_copy ? 3.0 : 4.0, 2 * transpose, 2, transpose};
  }
  // Delayed scaling: the norm kernel writes fp8 itself (its bytes are the norm op's); the
  // backward transposes the saved (gathered) fp8 input (r1 w1) where the GPU needs TN operands.
  return {2 + copies, 1, 0, any_layout ? 0.0 : 2.0, 0, any_layout ? 0.0 : 1.0};
}

namespace {

// FP8 casts (precision fp8): TransformerEngine fuses the casts of the QKV and FC1 inputs into
// the norm kernel of its LayerNormLinear, and cast-transposes (r2 w1 w1) the inputs of its
// row-parallel Linear layers: the attention output and the FC2 input, which Megatron-Core's own
// activation kernel writes in bf16 (Megatron-Core's TE layer spec: TELayerNormColumnParallelLinear,
// the MLP's activation, TERowParallelLinear). The norm-fused cast keeps no transpose: for the
// weight gradient LayerNormLinear transposes its saved (sequence-parallel: gathered) fp8 input in
// the backward (TE 1.x layernorm_linear.py, tex.fp8_transpose, r1 w1). The backward casts every
// GEMM's output gradient. An MoE layer's MLP is its experts: the routed copies reach the expert
// GEMMs after the token permute, so no norm kernel can cast them; Megatron-Core's TEGroupedMLP
// hands bf16 tokens to TransformerEngine's GroupedLinear, which casts (and transposes, for the
// weight gradient) the fc1 input of every routed copy, and the fc2 input after Megatron's own
// activation kernel; the shared experts' TE Linear layers cast theirs the same way (the MoE layer's
// norm is a separate kernel, shared with the router). The backward casts each expert GEMM's output
// gradient. torchao's dynamic float8 (eager or compiled torchtitan) is cost/torchao_float8.h's.
// That is delayed scaling on Hopper; the bytes and kernels per cast of each TE recipe, and on
// Blackwell, are TeFp8RecipeBytes's (elementwise_cost.h).
ElementwiseOp Fp8Casts(const CostGraph& d, int kind, const PlanShape& p) {
  if (p.kernels.Pytorch()) return TorchaoFloat8Casts(d, kind, p);
  const double heads = d.heads / p.tp, kv = ProjectedKvHeads(d, p);
  const double qkv_out = (heads + 2 * kv) * d.qk_head_dim, attn_out = heads * d.v_head_dim;
  const double attn_grads = p.tokens * (qkv_out + d.hidden);
  double mlp_inputs = 0, mlp_grads = 0, mlp_gemms = 2;
  if (kind & 1) {
    mlp_gemms = ExpertGemmCalls(d, kind, p);  // one cast per expert GEMM call
    const double routed = RoutedTokens(d, p);
    const double fe = d.expert_ffn / p.etp;
    mlp_inputs = routed * (d.hidden + fe);
    mlp_grads = routed * (d.gate * fe + d.hidden);
    if (d.shared_experts > 0) {
      const double fs = d.shared_experts * d.expert_ffn / p.tp;
      mlp_inputs += p.tokens * (d.hidden + fs);
      mlp_grads += p.tokens * (d.gate * fs + d.hidden);
      mlp_gemms += 2;
    }
  } else {
    const double f = d.ffn / p.tp;
    mlp_inputs = p.tokens * (d.hidden + f);
    mlp_grads = p.tokens * (d.gate * f + d.hidden);
  }
  const double grads = attn_grads + mlp_grads;
  const bool moe = (kind & 1) != 0;
  const double fc2_input = moe ? 0 : p.tokens * d.ffn / p.tp;
  const double fwd = p.tokens * attn_out + fc2_input + (moe ? mlp_inputs : 0);
  const double norm_linears = moe ? 1 : 2;  // QKV; FC1 where the MLP is dense
  const double fwd_casts = 1 + (moe ? mlp_gemms : 1), bwd_casts = 2 + mlp_gemms;
  const TeFp8Recipe r =
      TeFp8RecipeBytes(p.kernels.fp8_recipe, p.norm_tokens < p.tokens, p.fp8_any_layout);
  const double norm_out = norm_linears * p.norm_tokens * d.hidden;
  const double gathered = norm_linears * p.tokens * d.hidden;
  return {"fp8 cast", r.cast * fwd + r.norm_cast * norm_out,
          r.cast * grads + r.norm_transpose * gathered,
          r.cast_kernels * fwd_casts + r.norm_cast_kernels * norm_linears,
          r.cast_kernels * bwd_casts + r.norm_transpose_kernels * norm_linears};
}

// PyTorch's async TP (torch.compile's micro-pipeline TP pass, torchtitan's
// enable_async_tensor_parallel; torch/distributed/_symmetric_memory/__init__.py): each
// sequence-parallel all-gather + matmul and matmul + reduce-scatter is decomposed into tp chunks
// over symmetric memory instead of running NCCL. What that adds on the GPU beside the GEMMs:
// - matmul + reduce-scatter (`_pipelined_produce_and_all2all`): each rank's tp partial chunks
//   land in a stacked buffer and one `torch.sum` reduces them: it reads the whole unreduced
//   output (2 B x tokens x hidden) and writes the rank's 1/tp of it (NCCL reduces inside its
//   kernel, so synchronous TP moves neither);
// - all-gather + matmul (`_pipelined_all_gather_and_consume`): the local shard is copied into
//   the gathered output and into the rank's p2p buffer (read + write each, 1/tp of the input,
//   fp8 under torchao's float8 TP);
// - launches: tp - 1 more GEMM kernels on each side (one per chunk) and a barrier kernel per
//   step, tp - 1 in the reduce-scatter and 2 in the all-gather, with one sum and two copy
//   kernels.
// One pair per pass for the attention (QKV in, output out) and one for a dense MLP (up in, down
// out). The backward fuses only the all-gathers (the output gradient's, into the row-parallel
// dgrad): the column-parallel dgrads are summed before their reduce-scatter (torchtitan's split
// wq/wk/wv and w1/w3), which the pass leaves to NCCL (layer_comm.cpp, TpBlockOverlap), so the
// backward has no stacked-partial sum and keeps that reduce-scatter's dim-1 copy (read + write of
// the full input, as SequenceParallelCopies).
ElementwiseOp AsyncTpExtras(const CostGraph& d, int kind, const PlanShape& p) {
  const double pairs = (kind & 1) ? 1.0 : 2.0;  // MoE layers: the attention's pair only
  const double full = kAct * p.tokens * d.hidden;
  const double in_bytes = p.precision == Precision::kFp8 ? 1.0 : kAct;
  const double shard_elems = p.tokens * d.hidden / p.tp;
  const double rs_bytes = full * (1 + 1 / p.tp), ag_bytes = 2 * 2 * in_bytes * shard_elems;
  const double rs_kernels = 2 * (p.tp - 1) + 1, ag_kernels = (p.tp - 1) + 2 + 2;
  return {"async-TP extras", pairs * (rs_bytes + ag_bytes), pairs * (ag_bytes + 2 * full),
          pairs * (rs_kernels + ag_kernels), pairs * (ag_kernels + 1)};
}

// PyTorch's synchronous sequence-parallel TP (DTensor redistributes between Shard(1) and
// Replicate / Partial: torchtitan's SequenceParallel norms and PrepareModuleInput/Output) calls
// the functional collectives with gather_dim = scatter_dim = 1, the sequence, while NCCL gathers
// and scatters along dim 0: all_gather_tensor rearranges the gathered buffer with
// torch.cat(torch.chunk(res, group_size, dim=0), dim=gather_dim) and reduce_scatter_tensor its
// input with torch.cat(torch.chunk(self, group_size, dim=scatter_dim))
// (torch/distributed/_functional_collectives.py). One full-size copy (read + write) per
// collective: an all-gather and a reduce-scatter per block and pass, the backward's as many (the
// all-gather's gradient is a reduce-scatter and the reverse); the all-gather's in fp8 under
// torchao's float8 TP.
ElementwiseOp SequenceParallelCopies(const CostGraph& d, int kind, const PlanShape& p) {
  const double pairs = (kind & 1) ? 1.0 : 2.0;  // MoE layers: the attention's pair only
  const double elems = p.tokens * d.hidden;
  const double bytes = pairs * 2 * (TpAllGatherBytesPerElement(p) + kAct) * elems;
  return {"SP dim-1 copies", bytes, bytes, 2 * pairs, 2 * pairs};
}

// PyTorch's context-parallel ring attention (torch.distributed.tensor.experimental
// context_parallel, load-balanced causal, PyTorch 2.5-2.6: `_templated_ring_attention`,
// `_SDPAMerger`, `_templated_ring_attention_backward`): besides one SDPA call per ring step,
// element-wise work on the local output O (tokens x local heads x v_head_dim elements), on K and
// V as the kernel reads them (AttentionKvHeads) and on their gradients dK, dV, in fp32 where
// convert_to_f32 says so. On the rank that sets the pace, the last, every step after the first
// is a full-query block and takes the first half of the passed K/V:
// - every pass (forward, its replay, backward) copies K and V contiguous (r2 w2) and
//   concatenates them into the send buffer at each of the cp - 1 sends (r2 w2): 4 cp B per
//   element of K and V;
// - forward: every step's block output is cast to fp32 (r2 w4); every step after the first
//   merges it with the running output, `out - sigmoid(block_lse - lse) * (out - block_out)`
//   (three fp32 passes: r4 r4 w4, r4 w4, r4 r4 w4, 32 B); the last cast back (r4 w2):
//   6 + 38 (cp - 1) + 6 B per element of O;
// - backward, dQ: zero-filled fp32 accumulator (w4), one accumulate per step (r4 r2 w4), the
//   cast back (r4 w2): 4 + 10 cp + 6 B per element of O;
// - backward, dK and dV (passed round the ring in fp32): zero-filled (w4), the first step's
//   accumulate (r4 r2 w4), then per later step `_partial_update` of the received buffer's first
//   half (r4 r2 w4 over half) and its torch.cat back to one tensor (r4 w4), a torch.cat into the
//   send buffer at every step (r4 w4), the received result cast back (r4 w2):
//   4 + 10 + 13 (cp - 1) + 8 cp + 6 B per element.
// Launches: forward 2 copies, cp - 1 concatenations and 5 kernels per merge step; backward 3
// zero-fills, 2 copies, cp - 1 K/V concatenations, 2 + 4 (cp - 1) dK/dV updates, cp sends'
// concatenations, cp dQ accumulates and 2 casts.
ElementwiseOp RingAttentionMerge(const CostGraph& d, const PlanShape& p) {
  const double heads = d.heads / p.tp, kv = AttentionKvHeads(d, p);
  const double out = p.tokens * heads * d.v_head_dim;
  const double kv_elems = p.tokens * kv * (d.qk_head_dim + d.v_head_dim);
  const double cp = p.cp;
  const double kv_copies = kv_elems * 4 * cp;
  const double fwd = out * (6 + 38 * (cp - 1) + 6) + kv_copies;
  const double bwd = out * (4 + 10 * cp + 6) + kv_elems * (20 + 13 * (cp - 1) + 8 * cp) + kv_copies;
  const double fwd_kernels = 2 + (cp - 1) + 5 * cp;
  const double bwd_kernels = 3 + 2 + (cp - 1) + 2 + 4 * (cp - 1) + 2 * cp + 2;
  return {"ring-attention merge", fwd, bwd, fwd_kernels, bwd_kernels};
}

// The model code's repeat_kv (torchtitan's Llama): K and V expanded from the kv heads to the
// query heads and made contiguous for SDPA (reshape of an expand: r2 per kv element, w2 per
// query-head element); the backward sums each group of copies back (the expand's backward: the
// reverse traffic). One kernel per tensor and pass.
ElementwiseOp RepeatKv(const CostGraph& d, const PlanShape& p) {
  const double kv = ProjectedKvHeads(d, p), heads = d.heads / p.tp;
  const double bytes = kAct * p.tokens * (kv + heads) * (d.qk_head_dim + d.v_head_dim);
  return {"repeat K/V", bytes, bytes, 2, 2};
}

}  // namespace

double LayerElementwise::Sum(double ElementwiseOp::*field) const {
  double s = 0;
  for (size_t i = 0; i < count; ++i) s += ops[i].*field;
  return s;
}

double LayerElementwise::EagerKernels(double ElementwiseOp::*field) const {
  double s = 0;
  for (size_t i = 0; i < count; ++i) {
    if (ops[i].eager) s += ops[i].*field;
  }
  return s;
}

LayerElementwise ComputeLayerElementwise(const CostGraph& d, int kind, const PlanShape& p) {
  const Profile& prof = ProfileOf(p.kernels.fusion);
  LayerElementwise out;
  const double hidden_elems = p.norm_tokens * d.hidden;  // sequence-parallel region
  // fused_norm: a hand-written norm kernel in any profile, the fused kernel's r2 w2 (kTe's norm).
  const PerElement norm = p.kernels.fused_norm ? ProfileOf(Fusion::kTe).norm : prof.norm;
  out.Add(MakeOp("norm", 2 * hidden_elems, {norm.bytes, 2 * norm.kernels}));
  out.Add(
      MakeOp("residual add", 2 * hidden_elems, {prof.residual.bytes, 2 * prof.residual.kernels}));
  if (d.rope || d.mla) {
    const double heads = d.heads / p.tp, kv = d.mla ? 1.0 : ProjectedKvHeads(d, p);
    const double dim = d.mla ? d.rope_dim : d.qk_head_dim;
    out.Add(MakeOp("rope", p.tokens * (heads + kv) * dim, prof.rope));
  }
  if (!d.mla && AttentionKvHeads(d, p) > ProjectedKvHeads(d, p)) {  // repeat_kv on GQA
    out.Add(RepeatKv(d, p));
  }
  const PerElement act =
      d.gate > 1 ? prof.gated_act : (d.act_squared_relu ? prof.squared_relu : prof.act);
  const bool moe = (kind & 1) != 0;
  // Without grouped GEMM (SequentialMLP) every local expert runs its own activation kernel.
  const double act_launches = moe && !GroupedExpertCalls(p.kernels) ? LocalExperts(d, p) : 1.0;
  ElementwiseOp activation =
      MakeOp("activation", ActivationElements(d, kind, p), {act.bytes, act.kernels * act_launches});
  const bool eager = moe && MoeExpertsOutsideGraph(p);
  activation.eager = eager;
  out.Add(activation);
  if (moe) {
    // The router after its gating GEMM, the token permute / unpermute around the experts and the
    // dispatch's host syncs (moe_ops.h).
    out.Add(MoeRouterOp(d, p));
    ElementwiseOp permute = MoePermuteOp(d, p);
    permute.eager = eager;
    out.Add(permute);
    if (MoeHostSyncs(p) > 0) out.Add(MoeHostSyncOp(p));
  }
  if (!p.kernels.FlashAttention()) {
    // Megatron-LM's scores [b, heads, s, s] in HBM: FusedScaleMaskSoftmax (r2 w2) and attention
    // dropout (r2 w2 + 1-byte mask) forward; dropout (r2 r1 w2) and softmax (r2 r2 w2) backward.
    const double scores = p.tokens * (d.heads / p.tp) * AttentionSpan(p);  // per document
    out.scores = out.count;
    out.Add({"softmax+dropout", 9 * scores, 11 * scores, 2, 2});
  }
  if (p.precision == Precision::kFp8) out.Add(Fp8Casts(d, kind, p));
  if (p.kernels.Pytorch() && p.overlap_tp && p.tp > 1) out.Add(AsyncTpExtras(d, kind, p));
  if (p.kernels.sp_dim1_copies && !p.overlap_tp && p.tp > 1 && p.sequence_parallel) {
    out.Add(SequenceParallelCopies(d, kind, p));
  }
  if (p.kernels.Pytorch() && p.cp > 1) out.Add(RingAttentionMerge(d, p));
  // Transformer Engine's ring (Megatron-Core, NeMo): its own per-step passes
  // (te_context_parallel.h).
  if (!p.kernels.Pytorch() && p.kernels.FlashAttention() && p.cp > 1) {
    out.Add(TeContextParallelPasses(d, p));
  }
  return out;
}

double LayerMatmulKernels(const CostGraph& d, int kind, const PlanShape& p) {
  const bool split_linears = p.kernels.Pytorch();  // torchtitan's wq/wk/wv, w1/w3
  double n = 0;
  if (d.mla) {
    n += (d.q_lora > 0 ? 2 : 1) + 2;
  } else {
    n += split_linears ? 3 : 1;
  }
  n += 1;                                                 // output projection
  n += p.kernels.FlashAttention() ? 1 : 2;                // flash kernel, or QKᵀ and PV bmms
  const double up = d.gate > 1 && split_linears ? 2 : 1;  // gate and up projections
  if (kind & 1) {
    n += 1 + ExpertGemmKernels(d, kind, p);  // router, expert GEMMs (up, down)
    if (d.shared_experts > 0) n += up + 1;
  } else {
    n += up + 1;
  }
  return n;
}

double ExpertGemmCalls(const CostGraph& d, int kind, const PlanShape& p) {
  if (!(kind & 1)) return 0;
  return 2 * (GroupedExpertCalls(p.kernels) ? 1.0 : LocalExperts(d, p));
}

double ExpertGemmKernels(const CostGraph& d, int kind, const PlanShape& p) {
  if (!(kind & 1)) return 0;
  // One kernel per grouped call only for PyTorch's torch._grouped_mm (torchtitan); Transformer
  // Engine's grouped GEMM launches one cuBLAS GEMM per local expert (elementwise_cost.h).
  return 2 * (TorchGroupedMmCalls(p.kernels) ? 1.0 : LocalExperts(d, p));
}

double EagerLaunchSeconds(const Cluster& c) {
  return 1e-6 * c.efficiency.kernel_launch_us;
}

double LaunchSeconds(const Cluster& c, const PlanShape& p) {
  const double us = c.efficiency.kernel_launch_us;
  return 1e-6 * (p.kernels.cuda_graphs ? std::min(us, kGraphReplayGapUs) : us);
}

}  // namespace paraplan
