#include "cost/pipeline_hops.h"

#include <algorithm>
#include <array>

#include "cost/overlap_sm.h"
#include "hardware/group_placement.h"
#include "hardware/nccl_channels.h"

namespace paraplan {

// Every hop of the pipeline on the tier its ranks share (PipelineHopTier): a boundary inside a
// node is NVLink, one across nodes the scale-out network, whatever the pipeline group's stride.
// Hops on the same tier cost the same, so each tier is costed once.
void PipelineHops(const CostGraph& d, const Cluster& c, const NetworkLinks& links,
                  const ParallelPlan& p, PlanEvaluation& e) {
  const PlanShape& s = e.shape;
  e.p2p_s = 0;
  e.hops.Resize(p.pp > 1 ? p.pp : 0);
  if (p.pp < 2) return;
  const double bytes = kAct * s.norm_tokens * d.hidden;
  const int64_t stride = s.groups.pp.stride;
  const int64_t world = p.tp * p.cp * p.dp * p.pp;
  std::array<PipelineHop, kMaxTiers> on_tier{};
  std::array<bool, kMaxTiers> costed{};
  for (int64_t b = 0; b < p.pp; ++b) {
    const int tier = PipelineHopTier(p.pp, stride, b, (b + 1) % p.pp, world, c);
    if (!costed[tier]) {
      const GroupPlacement pair = PairOnTier(tier, stride);
      PipelineHop& h = on_tier[tier];
      h.tier = tier;
      h.sm_share = SmShare(NcclKernelCtas(CollectiveOp::kSendRecv, pair, c), c.gpu);
      if (p.kernels.fusion == Fusion::kApex && s.tp > 1 && !s.sequence_parallel) {
        // Megatron-LM 2020-22's scatter/gather optimization (Narayanan et al. SC'21 §4.1): each
        // of the tp ranks sends 1/tp of the replicated activation to the next stage, which
        // all-gathers it over its TP group.
        h.s = CollectiveSeconds(CollectiveOp::kSendRecv, bytes / s.tp, pair, links) +
              CollectiveSeconds(CollectiveOp::kAllGather, bytes, s.groups.tp, links);
      } else {
        h.s = CollectiveSeconds(CollectiveOp::kSendRecv, bytes, pair, links);
      }
      costed[tier] = true;
    }
    e.hops[b] = on_tier[tier];
    // The wrap hop (last stage to the first) is sent only by the interleaved schedule's chunks.
    if (b < p.pp - 1 || p.vpp > 1) e.p2p_s = std::max(e.p2p_s, e.hops[b].s);
  }
}

const PipelineHop& StageSendHop(const ParallelPlan& p, const PlanEvaluation& e, int64_t stage,
                                bool forward) {
  static const PipelineHop kNone{};
  if (p.pp < 2 || e.hops.size() < p.pp) return kNone;
  const bool wrap = p.vpp > 1;
  if (forward) return e.hops[stage < p.pp - 1 ? stage : (wrap ? p.pp - 1 : p.pp - 2)];
  return e.hops[stage > 0 ? stage - 1 : (wrap ? p.pp - 1 : 0)];
}

}  // namespace paraplan
