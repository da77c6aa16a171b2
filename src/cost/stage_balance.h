// Balanced pipeline layouts for any layer count (issue 15): layers per virtual stage, contiguous
// in model order, that minimise the slowest virtual stage's work, the embedding counted on the
// first virtual stage and the loss (and MTP) on theirs. For any per-layer work: a binary search
// on the bottleneck (to a relative 1e-5) with a greedy feasibility test (the linear-partition
// argument).
#pragma once

#include <array>
#include <cstdint>

#include "cost/cost_graph.h"
#include "cost/stage_vector.h"

namespace paraplan {

struct BalanceInput {
  const CostGraph* dims = nullptr;
  std::array<double, kLayerKinds> layer_work{};  // seconds per layer of each kind
  int64_t stages = 1;                            // virtual stages
  double first_extra = 0;                        // embedding work on stage 0
  double last_extra = 0;                         // loss (output layer) work on the last stage
  int64_t mtp_stage = -1;                        // stage holding the MTP modules, -1 = none
  double mtp_extra = 0;
};

// Fills out[v] (size stages). Only the first, the last and the MTP stage may hold no layer;
// the caller guarantees stages <= layers + 2. Ties keep layers on earlier stages.
void BalanceVirtualStages(const BalanceInput& in, StageVector<int64_t>& out);

// The slowest virtual stage's work under a layout (for tests and reports).
double SlowestStageWork(const BalanceInput& in, const int64_t* layers);

}  // namespace paraplan
