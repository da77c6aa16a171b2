// How a plan states its pipeline layout besides `pp_layers` (issue 15): Megatron-LM's split flags,
// torchtitan's split points, and where the MTP modules sit. Resolved to layers per virtual stage
// by plan/stage_layout.h once pp and vpp are known.
#pragma once

#include <cstdint>
#include <vector>

namespace paraplan {

struct StageLayoutRule {
  // torchtitan pipeline_parallel_split_points ("layers.N"): the first layer of every virtual
  // stage after the first, increasing.
  std::vector<int64_t> split_points;
  int64_t first_stage_layers = 0;  // Megatron --decoder-first-pipeline-num-layers (0 = unset)
  int64_t last_stage_layers = 0;   // Megatron --decoder-last-pipeline-num-layers (0 = unset)
  bool account_embedding = false;  // Megatron --account-for-embedding-in-pipeline-split
  bool account_loss = false;       // Megatron --account-for-loss-in-pipeline-split
  // Megatron-LM's split when no layout flag is given, stated: num_layers / pp layers on every
  // rank, / vpp per model chunk, the embedding and the loss uncounted; refused where Megatron-LM
  // refuses it (layers not divisible).
  bool even_split = false;
  int64_t mtp_stage = -1;  // virtual stage holding the MTP modules; -1 = the last one

  bool AnySplit() const {
    return !split_points.empty() || first_stage_layers > 0 || last_stage_layers > 0 ||
           account_embedding || account_loss || even_split;
  }
};

}  // namespace paraplan
