#include "cost/activation_terms.h"

#include <algorithm>

#include "cost/compute_cost.h"

namespace paraplan {
namespace {

// FP8 caching: a Linear input in 1 byte of 2; the output projection's input in DeepSeek-V3's
// E5M6 (12 bits of 16) (DeepSeek-V3 report, Sec. 3.3.3 "Low-Precision Storage").
constexpr double kFp8Share = 0.5, kE5m6Share = 0.75;

bool Moe(int kind) {
  return (kind & 1) != 0;
}

// Forward seconds of the MLA up-projections (q and kv) and RoPE on q / k.
double MlaUpSeconds(const CostGraph& d, const PlanShape& p, const Cluster& c) {
  if (!d.mla) return 0;
  const double t = p.tokens, heads = d.heads / p.tp;
  const double q_in = d.q_lora > 0 ? d.q_lora : d.hidden;
  return GemmSeconds(c, p.precision, t, heads * d.qk_head_dim, q_in) +
         GemmSeconds(c, p.precision, t, heads * (d.qk_head_dim - d.rope_dim + d.v_head_dim),
                     d.kv_lora) +
         MemoryBoundSeconds(c, kAct * t * heads * d.qk_head_dim * 4);
}

// Forward seconds of one MLP of width f on `rows` tokens: its GEMMs and activation function.
double MlpSeconds(const CostGraph& d, const PlanShape& p, const Cluster& c, double rows, double f,
                  double gemms) {
  return gemms * (GemmSeconds(c, p.precision, rows / gemms, d.gate * f, d.hidden) +
                  GemmSeconds(c, p.precision, rows / gemms, d.hidden, f)) +
         MemoryBoundSeconds(c, kAct * rows * f * (d.gate + 1));
}

// Forward seconds of a whole MoE block: router, the local experts, the shared experts.
double MoeSeconds(const CostGraph& d, const PlanShape& p, const Cluster& c) {
  const double local_experts = std::max(d.experts / p.ep, 1.0);
  double s = GemmSeconds(c, p.precision, p.tokens / p.tp, d.experts, d.hidden);
  s += MlpSeconds(d, p, c, RoutedTokens(d, p), d.expert_ffn / p.etp, local_experts);
  if (d.shared_experts > 0) {
    s += MlpSeconds(d, p, c, p.tokens, d.shared_experts * d.expert_ffn / p.tp, 1);
  }
  return s;
}

// Transformer Engine under fp8: the Linear inputs it keeps in 1 byte (TeFp8LinearInputs).
void ApplyTeFp8(ActivationTerms& a) {
  a.te_fp8 = true;
  a.norm_out *= kFp8Share;        // LayerNormLinear's ln_out (QKV and FC1 / router input)
  a.attn_out *= 1.0 + kFp8Share;  // attention's bf16 output + the projection's fp8 copy
  a.mlp_act_out *= kFp8Share;     // FC2's input
  a.expert_in *= kFp8Share;       // the experts' FC1 input (GroupedLinear)
  a.expert_act_out *= kFp8Share;  // the experts' FC2 input
}

}  // namespace

bool TeFp8LinearInputs(const PlanShape& p) {
  return p.precision == Precision::kFp8 && p.kernels.fusion == Fusion::kTe;
}

ActivationTerms ComputeActivationTerms(const CostGraph& d, int kind, const PlanShape& p) {
  const double t = p.tokens, tn = p.norm_tokens, h = d.hidden, tp = p.tp;
  const double heads = d.heads / tp;
  const double kv = AttentionKvHeads(d, p);  // repeat_kv: SDPA keeps the repeated K/V
  ActivationTerms a;
  a.residual = 2 * kAct * tn * h;
  a.norm_out = 2 * kAct * tn * h;
  a.qkv = kAct * t * (heads * d.qk_head_dim + kv * (d.qk_head_dim + d.v_head_dim));
  if (d.mla) a.latents = kAct * t * (d.q_lora + d.kv_lora + d.rope_dim);
  a.attn_out = kAct * t * heads * d.v_head_dim;
  a.softmax_stats = 4.0 * t * heads;
  if (!Moe(kind)) {
    const double f = d.ffn / tp;
    a.mlp_act_in = kAct * t * f * d.gate;
    a.mlp_act_out = kAct * t * f;
    if (TeFp8LinearInputs(p)) ApplyTeFp8(a);
    return a;
  }
  const double routed = RoutedTokens(d, p), fe = d.expert_ffn / p.etp;
  const double fs = d.shared_experts * d.expert_ffn / tp;
  a.router = 4.0 * (t / tp) * d.experts;
  a.expert_in = kAct * routed * h;
  a.expert_act_in = kAct * (routed * fe + t * fs) * d.gate;
  a.expert_act_out = kAct * (routed * fe + t * fs);
  // What the probabilities' multiply keeps for its backward (plan/memory_recipe.h, MoeProbs):
  // the probabilities themselves always, and the tensor they scale when that tensor is not kept
  // anyway (the activation function's input is: expert_act_in).
  a.expert_probs = 4.0 * routed;
  switch (p.recipe.ProbsPath()) {
    case MoeProbs::kOutput:
      a.expert_out = kAct * routed * h;
      break;
    case MoeProbs::kInput:
      a.expert_unscaled = kAct * routed * h;
      break;
    case MoeProbs::kActivation:
    case MoeProbs::kAuto:
      break;
  }
  if (TeFp8LinearInputs(p)) ApplyTeFp8(a);
  return a;
}

RecipeActivations ApplyMemoryRecipe(const CostGraph& d, int kind, const PlanShape& p,
                                    const Cluster& c, const ActivationTerms& terms,
                                    double attn_fwd_s) {
  ActivationTerms a = terms;
  RecipeActivations out;
  const MemoryRecipe& r = p.recipe;
  const bool selective = p.recompute == Recompute::kSelective;
  bool act_recomputed = false;
  if (selective && r.Recomputes(RecomputeModule::kCoreAttn)) {
    a.softmax_stats = 0;
    out.recompute_s += attn_fwd_s;
  }
  if (selective && r.Recomputes(RecomputeModule::kLayernorm)) {
    a.norm_out = 0;  // two norms, each reading and writing tn x h
    out.recompute_s += MemoryBoundSeconds(c, 2 * 2 * kAct * p.norm_tokens * d.hidden);
  }
  if (selective && d.mla && r.Recomputes(RecomputeModule::kMlaUpProj)) {
    a.qkv = 0;
    out.recompute_s += MlaUpSeconds(d, p, c);
  }
  if (selective && !Moe(kind) && r.Recomputes(RecomputeModule::kMlp)) {
    out.recompute_s += MlpSeconds(d, p, c, p.tokens, d.ffn / p.tp, 1);
    a.mlp_act_in = a.mlp_act_out = 0;
  }
  if (selective && Moe(kind) && r.Recomputes(RecomputeModule::kMoe)) {
    out.recompute_s += MoeSeconds(d, p, c);
    a.router = a.expert_in = a.expert_act_in = a.expert_act_out = a.expert_out = 0;
    a.expert_probs = a.expert_unscaled = 0;
  }
  // moe_act, and FP8 caching of MoE's SwiGLU input (its output recomputed, DeepSeek-V3).
  const bool moe_act = selective && r.Recomputes(RecomputeModule::kMoeAct);
  if (Moe(kind) && a.expert_act_out > 0 && (moe_act || r.fp8_act_cache)) {
    // The recompute reads the input and writes the 16-bit output (ApplyTeFp8 counted the fp8
    // copy FC2 keeps).
    const double act_out_16 = a.te_fp8 ? a.expert_act_out / kFp8Share : a.expert_act_out;
    out.recompute_s += MemoryBoundSeconds(c, a.expert_act_in + act_out_16);
    a.expert_act_out = 0;
    act_recomputed = true;
  }
  if (r.fp8_act_cache && p.recompute != Recompute::kFull) {
    // Under Transformer Engine's fp8 the other Linear inputs are 1 byte already (ApplyTeFp8).
    const double linear_in = a.te_fp8 ? 1.0 : kFp8Share;
    a.norm_out *= linear_in;  // QKV / MLP / router inputs
    a.latents *= kFp8Share;   // MLA up-projection inputs
    // One E5M6 copy of the attention output serves both backwards (DeepSeek-V3), in place of
    // Transformer Engine's bf16 output and fp8 copy.
    a.attn_out = (a.te_fp8 ? a.attn_out / (1.0 + kFp8Share) : a.attn_out) * kE5m6Share;
    a.mlp_act_out *= linear_in;  // dense down-projection input
    a.expert_in *= linear_in;    // dispatched tokens (FC1 input)
    if (act_recomputed) a.expert_act_in *= kFp8Share;
  }
  out.kept_bytes = a.Total();
  return out;
}

}  // namespace paraplan
