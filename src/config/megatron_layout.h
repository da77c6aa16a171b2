// Megatron-LM's --pipeline-model-parallel-layout string (megatron/core/transformer/
// pipeline_parallel_layer_layout.py): stages separated by '|', 'E' embedding, 't' decoder layer,
// 'm' MTP module, 'L' loss; 'x*n' and '(...)*n' repeat; ',' and spaces are ignored.
// Example (DeepSeek-V3 on pp=16, vpp=2): "Et*3|(tt|)*29,m|L".
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace paraplan {

struct MegatronLayout {
  std::vector<int64_t> layers;  // decoder layers per virtual stage, model order
  int64_t mtp_stage = -1;       // the virtual stage holding 'm', -1 when none
  int64_t mtp_layers = 0;       // how many 'm'
};

// Throws InputError naming what is wrong (an unknown character, an unbalanced parenthesis,
// 'E' outside the first stage, 'L' outside the last, 'm' in two stages).
MegatronLayout ParseMegatronLayout(const std::string& text);

// torchtitan split points "layers.4/layers.8" (or bare "4/8") to layer indices; throws on a
// malformed point.
std::vector<int64_t> ParseSplitPoints(const std::string& text);

}  // namespace paraplan
