// PRIVATE to src/config: help for the --plan string as people type it. The names other tools use
// for a knob (Megatron-LM's and DeepSpeed's flags, common abbreviations: mbs, gbs, tp_size,
// tensor_parallel, ...) map to paraplan's knob for "did you mean"; and knobs separated by spaces
// instead of commas are refused with the corrected string (spaces would otherwise glue
// "tp=8 pp=2" into one misleading value).
#pragma once

#include <string>
#include <vector>

namespace paraplan {

// paraplan's knob for another tool's name or an abbreviation (mbs → micro_batch), or "".
std::string KnobForAlias(const std::string& name);

// Megatron-LM's names for the memory-recipe knobs, accepted as they are (issue 17):
// exp_avg_dtype → optimizer_moments, optimizer_offload_fraction → optimizer_offload,
// recompute_module → recompute_modules, fp8_activation_cache → fp8_act_cache,
// weights_ema → ema; dashes and a leading "--" allowed ("--exp-avg-dtype"). The knob, or "".
std::string KnobForAcceptedAlias(const std::string& name);
// The accepted aliases as written above (for the YAML reader's allowed keys).
std::vector<std::string> AcceptedAliasNames();

// Throws InputError (at --plan) when whitespace separates two knob=value items; spaces after a
// comma or around '=', '|' and '/' are fine.
void CheckKnobSeparators(const std::string& text);

}  // namespace paraplan
