// Pipeline stage layouts (issue 15): the decoder layers each virtual pipeline stage holds, and
// where the embedding (first virtual stage), the loss (last) and the MTP modules sit. Virtual
// stages are in model order, as Megatron-LM's --pipeline-model-parallel-layout lists them:
// virtual stage v is model chunk v / pp of physical stage v % pp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

inline int64_t VirtualStages(const ParallelPlan& p) {
  return p.pp * std::max<int64_t>(p.vpp, 1);
}

// True when the plan fixes its layout (pp_layers or a StageLayoutRule split); false means the
// cost model balances the stages itself.
bool HasFixedLayout(const ParallelPlan& plan);

// The fixed layout as layers per virtual stage (size pp*vpp) into *out, and "" — or the reason
// it is invalid, naming the knob (pp_layers, pp_first_layers, pp_split_points, ...). A fixed
// layout must sum to `layers`; a virtual stage may hold no layer only when it holds the
// embedding, the loss or the MTP modules. Leaves *out empty when the layout is automatic.
std::string ResolveVirtualLayers(int64_t layers, int64_t mtp_layers, const ParallelPlan& plan,
                                 std::vector<int64_t>* out);

// The virtual stage holding the MTP modules (the last one unless the layout says otherwise).
int64_t MtpVirtualStage(const ParallelPlan& plan);

// Megatron-LM's --pipeline-model-parallel-layout string for a layout ("Et*3|(tt|)*29,m|L" style,
// written with repeats: "Ettt|tt|...|m|L"): E embedding, t decoder layer, m MTP, L loss.
std::string MegatronLayoutString(const std::vector<int64_t>& virtual_layers, int64_t mtp_stage,
                                 int64_t mtp_layers);

// Layers per physical stage (summed over its chunks).
std::vector<int64_t> PhysicalStageLayers(const std::vector<int64_t>& virtual_layers, int64_t pp);

}  // namespace paraplan
