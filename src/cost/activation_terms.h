// The activations one layer keeps for backward, term by term, and what a memory recipe
// (plan/memory_recipe.h) does to them: Megatron-LM's --recompute-modules drop the terms the
// module recomputes; FP8 activation caching stores Linear inputs in 1 byte (DeepSeek-V3 report,
// Sec. 3.3.3). One layer, one micro-batch, one GPU; FlashAttention (no s x s matrix), no
// dropout. Formulas and sources: docs/cost-model.md ("Memory recipes").
#pragma once

#include "cost/cost_graph.h"
#include "cost/plan_shape.h"
#include "hardware/cluster.h"

namespace paraplan {

// Bytes per term at 16 bits (fp32 where noted), before any recipe.
struct ActivationTerms {
  double residual = 0;         // the two norm inputs (layer input, post-attention residual)
  double norm_out = 0;         // the two norm outputs (QKV input, MLP/router input)
  double qkv = 0;              // q, k, v per head (MLA: the up-projections' outputs)
  double latents = 0;          // MLA q / kv latents (up-projection inputs)
  double attn_out = 0;         // core-attention output (output-projection input)
  double softmax_stats = 0;    // FlashAttention's logsumexp, fp32
  double mlp_act_in = 0;       // dense MLP: activation-function input (gate and up)
  double mlp_act_out = 0;      // dense MLP: down-projection input
  double router = 0;           // router probabilities, fp32
  double expert_in = 0;        // dispatched tokens (expert FC1 input)
  double expert_act_in = 0;    // expert FC1 output (activation-function input), routed + shared
  double expert_act_out = 0;   // expert FC2 input, routed + shared
  double expert_out = 0;       // expert FC2 output, kept when the probs scale it (moe_probs=output)
  double expert_probs = 0;     // the permuted routing probabilities, fp32 (every moe_probs path)
  double expert_unscaled = 0;  // dispatched tokens before the probs scale them (moe_probs=input)
  // Transformer Engine under fp8 (fusion te, precision fp8): its Linear layers keep the fp8
  // copies of their inputs they fed the GEMM, 1 byte each (TeFp8LinearInputs).
  bool te_fp8 = false;

  double Total() const {
    return residual + norm_out + qkv + latents + attn_out + softmax_stats + mlp_act_in +
           mlp_act_out + router + expert_in + expert_act_in + expert_act_out + expert_out +
           expert_probs + expert_unscaled;
  }
};

ActivationTerms ComputeActivationTerms(const CostGraph& dims, int kind, const PlanShape& shape);

// Whether the plan runs Transformer Engine's modules under fp8 (fusion te, precision fp8), whose
// Linear layers save for backward the fp8 (1-byte) input they fed the GEMM instead of the bf16
// one (transformer_engine/pytorch/module/layernorm_linear.py: ln_out allocated as uint8 under
// fp8 and saved; linear.py: saved_inputmat / saved_inputmat_t the fp8 cast, inputmat_no_fp8 not
// saved). ComputeActivationTerms then counts norm_out, mlp_act_out, expert_in and expert_act_out
// at 1 byte; attn_out at 2 + 1 (the core attention keeps its bf16 output for its backward, the
// output projection its fp8 copy). torchao's Float8Linear (fusion eager / compile) is counted
// in bf16, unchanged (its tensorwise path saves the fp8 input: docs/cost-model.md).
bool TeFp8LinearInputs(const PlanShape& shape);

// What selective recompute with the plan's modules and FP8 caching keep, and the forward
// seconds the backward redoes. `attn_fwd_s` is the layer's core-attention forward.
struct RecipeActivations {
  double kept_bytes = 0;
  double recompute_s = 0;
};

RecipeActivations ApplyMemoryRecipe(const CostGraph& dims, int kind, const PlanShape& shape,
                                    const Cluster& cluster, const ActivationTerms& terms,
                                    double attn_fwd_s);

}  // namespace paraplan
