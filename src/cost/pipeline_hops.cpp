#include "cost/pipeline_hops.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "cost/overlap_sm.h"
#include "hardware/group_placement.h"
#include "hardware/nccl_channels.h"

namespace paraplan {
namespace {

// The tier of every hop of a pipeline (PipelineHopTier for b -> (b + 1) % pp), remembered for
// the last pipeline asked about on this thread: the search lays out the stages of ~10^6 plans,
// each pipeline shape many times over. Keyed by every input PipelineHopTier reads (the tiers'
// spans, not the cluster's address), so the tiers are the ones it computes.
class HopTiers {
 public:
  const std::vector<uint8_t>& Of(int64_t pp, int64_t stride, int64_t world, const Cluster& c) {
    std::array<int64_t, kMaxTiers + 1> spans{};
    spans[0] = static_cast<int64_t>(c.network.size());
    for (size_t t = 0; t < c.network.size() && t < kMaxTiers; ++t) spans[t + 1] = c.network[t].span;
    if (pp == pp_ && stride == stride_ && world == world_ && spans == spans_) return tiers_;
    pp_ = pp;
    stride_ = stride;
    world_ = world;
    spans_ = spans;
    tiers_.resize(static_cast<size_t>(pp));
    for (int64_t b = 0; b < pp; ++b) {
      tiers_[static_cast<size_t>(b)] =
          static_cast<uint8_t>(PipelineHopTier(pp, stride, b, (b + 1) % pp, world, c));
    }
    return tiers_;
  }

 private:
  int64_t pp_ = -1, stride_ = -1, world_ = -1;
  std::array<int64_t, kMaxTiers + 1> spans_{};
  std::vector<uint8_t> tiers_;
};

}  // namespace

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
  thread_local HopTiers hop_tiers;
  const std::vector<uint8_t>& tiers = hop_tiers.Of(p.pp, stride, world, c);
  for (int64_t b = 0; b < p.pp; ++b) {
    const int tier = tiers[static_cast<size_t>(b)];
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
