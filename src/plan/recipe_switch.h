// A recipe switch: a bool knob of the kernel recipe (kernel_recipe.h) or the memory recipe
// (memory_recipe.h). Its row in the knob table (knob_table.cpp) names the member it sets, so one
// row serves every list: the loader sets it (config/knob_setters.cpp), the plan string
// (plan_string.cpp) and the step-result JSON (report/step_result_json.cpp) write it, all by
// walking the table; its default is the recipe member's initializer, never restated.
#pragma once

#include "plan/kernel_recipe.h"
#include "plan/memory_recipe.h"

namespace paraplan {

// When the step-result JSON writes a switch, inside its recipe's part of the plan object (which
// is written only when the recipe differs from its defaults, DESIGN.md's JSON contract).
enum class SwitchJson : unsigned char {
  kChanged,   // when it differs from its default (a new switch's)
  kAlways,    // whenever the recipe's part is written (cuda_graphs, beside fusion: issue 14)
  kMoeGroup,  // the MoE layer's kernel switches: all of them when any differs from its default
};

enum class RecipePart { kKernels, kMemory };

struct RecipeSwitch {
  bool KernelRecipe::*kernels = nullptr;  // a switch's row sets exactly one of the two
  bool MemoryRecipe::*memory = nullptr;
  SwitchJson json = SwitchJson::kChanged;

  constexpr bool IsSwitch() const { return kernels != nullptr || memory != nullptr; }
  constexpr bool In(RecipePart part) const {
    return part == RecipePart::kKernels ? kernels != nullptr : memory != nullptr;
  }
  constexpr bool Of(const KernelRecipe& k, const MemoryRecipe& m) const {
    return kernels != nullptr ? k.*kernels : m.*memory;
  }
  constexpr bool Default() const { return Of(KernelRecipe{}, MemoryRecipe{}); }
};

constexpr RecipeSwitch KernelSwitch(bool KernelRecipe::*member,
                                    SwitchJson json = SwitchJson::kChanged) {
  return {member, nullptr, json};
}
constexpr RecipeSwitch MemorySwitch(bool MemoryRecipe::*member) {
  return {nullptr, member, SwitchJson::kChanged};
}

}  // namespace paraplan
