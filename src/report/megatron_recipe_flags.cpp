#include "report/megatron_recipe_flags.h"

#include "core/format.h"

namespace paraplan {

void MegatronRecipeFlags(const ParallelPlan& p, std::vector<std::string>& flags,
                         std::vector<std::string>& notes) {
  const MemoryRecipe& r = p.recipe;
  if (p.recompute == Recompute::kSelective && r.recompute_modules != 0) {
    std::string modules = "--recompute-modules";
    for (const auto& [name, bit] : RecomputeModuleNames()) {
      if ((r.recompute_modules & static_cast<uint32_t>(bit)) != 0)
        modules += std::string(" ") + name;
    }
    flags.push_back(modules);
  }
  const bool bf16_moments = r.optimizer_moments == MomentDtype::kBf16;
  // --optimizer-cpu-offload asserts --use-precision-aware-optimizer (arguments.py: "the hybrid
  // device optimizer reuses the code path of this flag").
  if (bf16_moments || r.optimizer_offload > 0) flags.push_back("--use-precision-aware-optimizer");
  if (bf16_moments) {
    flags.push_back("--exp-avg-dtype bf16");
    flags.push_back("--exp-avg-sq-dtype bf16");
  }
  if (r.optimizer_offload > 0) {
    flags.push_back("--optimizer-cpu-offload");
    flags.push_back("--optimizer-offload-fraction " + FormatShortest(r.optimizer_offload));
  }
  if (r.moe_probs == MoeProbs::kInput) flags.push_back("--moe-apply-probs-on-input");
  if (r.fp8_act_cache) {
    notes.push_back(
        "fp8_act_cache=true (Linear inputs cached in FP8, DeepSeek-V3's recipe) has "
        "no Megatron-LM flag");
  }
  if (r.ema != EmaPlace::kNone) {
    notes.push_back(std::string("ema=") + ToString(r.ema) +
                    " (an EMA of the weights) has no Megatron-LM flag");
  }
}

std::string MegatronRecipeFlagsText(const ParallelPlan& p) {
  std::vector<std::string> flags, notes;
  MegatronRecipeFlags(p, flags, notes);
  std::string text;
  for (const std::string& f : flags) text += (text.empty() ? "" : " ") + f;
  return text;
}

}  // namespace paraplan
