#include "search/memory_relief.h"

namespace paraplan {

std::vector<MemoryRelief> MemoryReliefLadder(Framework framework) {
  if (framework != Framework::kAny && framework != Framework::kMegatron) return {};
  MemoryRecipe bf16_moments;
  bf16_moments.optimizer_moments = MomentDtype::kBf16;
  MemoryRecipe offload;
  offload.optimizer_offload = 1;
  return {{"optimizer_moments=bf16", bf16_moments}, {"optimizer_offload=1", offload}};
}

}  // namespace paraplan
