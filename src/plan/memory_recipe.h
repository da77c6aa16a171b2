// How a plan saves memory besides the recompute mode and ZeRO (issue 17): which modules
// selective recompute redoes (Megatron-LM --recompute-modules), FP8 caching of Linear inputs
// (DeepSeek-V3 report, Sec. 3.3.3) and the optimizer's moment precision (Megatron-LM
// --use-precision-aware-optimizer --exp-avg-dtype/--exp-avg-sq-dtype), where MoE applies the
// router probabilities (Megatron-Core --moe-apply-probs-on-input) and where an EMA of the
// weights lives (DeepSeek-V3 report, Sec. 3.3.3: CPU memory). One fixed value per plan;
// the formulas are in cost/activation_terms.h and cost/memory_model.h (docs/cost-model.md).
#pragma once

#include <cstdint>
#include <string>

#include "core/name_table.h"

namespace paraplan {

// Megatron-LM's --recompute-modules names, one bit each (megatron/core/transformer/
// transformer_config.py, recompute_modules).
enum class RecomputeModule : uint32_t {
  kCoreAttn = 1,   // core attention (FlashAttention's softmax statistics)
  kMoeAct = 2,     // the experts' activation function: its output recomputed from its input
  kLayernorm = 4,  // input and pre-MLP norms: their outputs recomputed
  kMlaUpProj = 8,  // MLA up-projections (q, k, v from the latents; no-op without MLA)
  kMlp = 16,       // the dense MLP: only its input kept
  kMoe = 32,       // the whole MoE block (router, experts, shared experts): only its input kept
};

enum class MomentDtype { kFp32, kBf16 };

// Where MoE multiplies the tokens by their routing probabilities, which decides what the
// experts keep for backward (megatron/core/transformer/moe/experts.py, token_dispatcher.py):
//   kActivation: inside the activation function (activation_func_with_probs, weighted SwiGLU;
//                Megatron-Core's default since the probs moved into the experts): the expert
//                output is not kept, the permuted probabilities are.
//   kInput:      on the dispatched tokens before FC1 (--moe-apply-probs-on-input, top-1 only):
//                the unscaled tokens are kept for the probabilities' gradient beside FC1's
//                (scaled) input.
//   kOutput:     on the expert output in the unpermute (Megatron-Core before the move): the
//                expert output is kept for the probabilities' gradient.
//   kAuto:       what Megatron-Core does by default (kActivation).
enum class MoeProbs { kAuto, kActivation, kInput, kOutput };

// An exponential moving average of the weights (fp32): none, on the GPU (4 bytes per parameter
// of the GPU's optimizer shard), or in host memory (DeepSeek-V3 report, Sec. 3.3.3).
enum class EmaPlace { kNone, kGpu, kCpu };

struct MemoryRecipe {
  // Bits of RecomputeModule for recompute=selective; 0 = Megatron-LM's default (core_attn).
  uint32_t recompute_modules = 0;
  bool fp8_act_cache = false;  // Linear inputs cached in FP8 for backward (DeepSeek-V3)
  // The loss as one fused kernel over the bf16 logits (Megatron-Core --cross-entropy-loss-fusion,
  // TransformerEngine parallel_cross_entropy): no fp32 copy, the gradient written in place.
  bool cross_entropy_fusion = false;
  MomentDtype optimizer_moments = MomentDtype::kFp32;
  // Share of the optimizer state (master weights and moments) kept and updated in host memory
  // (Megatron-LM --optimizer-cpu-offload --optimizer-offload-fraction), 0..1.
  double optimizer_offload = 0;
  MoeProbs moe_probs = MoeProbs::kAuto;
  EmaPlace ema = EmaPlace::kNone;

  // Every bool member is a knob whose knob-table row names it (plan/recipe_switch.h; tested).
  bool operator==(const MemoryRecipe&) const = default;
  bool IsDefault() const { return *this == MemoryRecipe{}; }
  // kAuto resolved to Megatron-Core's default.
  MoeProbs ProbsPath() const {
    return moe_probs == MoeProbs::kAuto ? MoeProbs::kActivation : moe_probs;
  }
  // The modules selective recompute redoes (the default when none were named).
  uint32_t SelectiveModules() const {
    return recompute_modules != 0 ? recompute_modules
                                  : static_cast<uint32_t>(RecomputeModule::kCoreAttn);
  }
  bool Recomputes(RecomputeModule m) const {
    return (SelectiveModules() & static_cast<uint32_t>(m)) != 0;
  }
};

const NameTable<RecomputeModule>& RecomputeModuleNames();
const NameTable<MomentDtype>& MomentDtypeNames();
const NameTable<MoeProbs>& MoeProbsNames();
const NameTable<EmaPlace>& EmaPlaceNames();
const char* ToString(MomentDtype v);
const char* ToString(MoeProbs v);
const char* ToString(EmaPlace v);
// "core_attn+layernorm" in the table's order ("" for none).
std::string RecomputeModulesToString(uint32_t modules);

}  // namespace paraplan
