// The framework flags that reproduce a plan's pipeline layout (issue 15): Megatron-LM's split
// flags or --pipeline-model-parallel-layout, torchtitan's module_fqns_per_model_part.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost/step_result.h"

namespace paraplan {

// Layers per virtual stage of a result: its evaluated layout, else the plan's pp_layers when
// they list every virtual stage (or every stage at vpp = 1); empty when unknown.
std::vector<int64_t> ResultLayout(const StepResult& result);

// True when every virtual stage holds the same layers and the MTP modules (if any) sit on the
// last one: the frameworks' default split, no layout flag needed.
bool IsDefaultLayout(const StepResult& result, const std::vector<int64_t>& layout);

// Megatron-LM flags reproducing a non-default layout; `note` says which form was chosen.
std::vector<std::string> MegatronLayoutFlags(const StepResult& result,
                                             const std::vector<int64_t>& layout, std::string* note);

// torchtitan's module_fqns_per_model_part: one list of module names per virtual stage
// ("tok_embeddings", "layers.N", "norm", "output"), as a TOML value.
std::string TorchtitanModuleFqns(const std::vector<int64_t>& layout);

}  // namespace paraplan
