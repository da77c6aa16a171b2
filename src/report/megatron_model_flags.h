// The model-shape half of a Megatron-LM launch line (megatron/training/arguments.py): layers,
// widths, attention kind (GQA, MLA, sliding window), MLP activation, norm, position embedding,
// MoE layout, MTP, sequence length. The plan half is in megatron_reporter.cpp.
#pragma once

#include <string>
#include <vector>

#include "model/model_spec.h"

namespace paraplan {

// One "--flag value" (or bare "--flag") per entry, in a fixed order; seq_len is the plan's.
std::vector<std::string> MegatronModelFlags(const ModelSpec& model, int64_t seq_len);

// Appends "name value" to a launch line's flags (this half's and megatron_reporter.cpp's).
void AddMegatronFlag(std::vector<std::string>& flags, const std::string& name, int64_t value);

// Megatron-LM's --moe-layer-freq list for the model: 0 = dense layer, 1 = MoE layer.
std::string MegatronMoeLayerFreq(const ModelSpec& model);

}  // namespace paraplan
