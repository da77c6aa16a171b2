// When no plan fits with the default memory recipe, `plan` searches again with the recipes that
// shrink the optimizer state (issue 17: "plan searches the recompute/offload choices when memory
// is tight"). Recompute is searched anyway (none, selective, full); what is left when even full
// recompute and ZeRO-3 do not fit is the optimizer state, so the ladder is, in order of the time
// it costs:
//   1. optimizer_moments=bf16: Adam's moments in bf16 (Megatron-LM --use-precision-aware-optimizer
//      --exp-avg-dtype bf16 --exp-avg-sq-dtype bf16; DeepSeek-V3 report, Sec. 3.3.3), 12 -> 8
//      bytes per parameter of optimizer state and less Adam traffic: no time cost, a numerics
//      choice;
//   2. optimizer_offload=1: the whole optimizer state in host memory (Megatron-LM
//      --optimizer-cpu-offload --optimizer-offload-fraction 1), its traffic over the host link each
//      step (docs/cost-model.md, "Memory per stage").
// The first rung under which some plan fits is reported, and the report says which. Only where the
// user left the recipe free, and only for frameworks that have these flags (any, megatron).
#pragma once

#include <string>
#include <vector>

#include "plan/framework_caps.h"
#include "plan/memory_recipe.h"

namespace paraplan {

struct MemoryRelief {
  std::string knobs;    // as --plan writes them, e.g. "optimizer_moments=bf16"
  MemoryRecipe recipe;  // the recipe searched
};

// The rungs `framework` can use, in order; empty for torchtitan and DeepSpeed (their offloads,
// FSDP2's CPUOffloadPolicy and ZeRO-Offload, move parameters and gradients too, and paraplan does
// not export them).
std::vector<MemoryRelief> MemoryReliefLadder(Framework framework);

}  // namespace paraplan
