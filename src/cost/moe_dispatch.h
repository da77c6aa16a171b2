// Two-hop MoE dispatch and combine, as DeepSeek-V3 runs it (DeepSeek-V3 technical report,
// arXiv 2412.19437, §3.2.2) and as deepseek-ai/DeepEP's internode kernels do for Megatron-Core's
// flex dispatcher (`--moe-token-dispatcher-type flex --moe-enable-deepep`): a token bound for
// experts on another node crosses the network once per destination node, to the GPU with its own
// local index there, which forwards it over NVLink to every GPU of that node holding one of its
// experts; experts on this node are reached over NVLink directly. One copy per destination node
// on the network and one per destination GPU on NVLink, where Megatron-Core's alltoall dispatcher
// sends one per (token, expert) pair straight to the expert's GPU. Group-limited routing
// (DeepSeek-V3: 8 groups of 32 experts, one per node, 4 chosen per token; `moe.groups`,
// `moe.group_topk`) caps the nodes a token reaches. docs/cost-model.md, "Two-hop MoE dispatch".
#pragma once

#include "cost/cost_graph.h"
#include "cost/plan_shape.h"
#include "hardware/collective_cost.h"
#include "hardware/group_placement.h"

namespace paraplan {

// Expected number of distinct units (nodes or GPUs; `units` of them, each holding experts / units
// of the experts) one token's top_k experts fall on, routing balanced: the experts chosen
// uniformly without replacement among all of them, or, when the router is group-limited
// (1 < groups, group_topk < groups), among those of group_topk groups chosen uniformly, where the
// groups align with the units (each unit holds whole groups, or each group whole units). Groups
// that do not align are read as no limit. 0 for units < 1 or no experts.
double ExpectedUnitsHit(double experts, double top_k, double groups, double group_topk,
                        double units);

// Bytes per hidden element of an FP8 dispatch in DeepSeek-V3's recipe: the activation before the
// MoE up-projection is quantized to FP8 before the dispatch (and, backward, the activation
// gradient before the down-projection), with one fp32 scale per 1 x 128 tile; both combines stay
// in BF16 (report §3.3.2, "Low-Precision Communication"; §3.3.2's tile-wise scaling).
inline constexpr double kFp8DispatchBytes = 1.0 + 4.0 / 128;

// Bytes one GPU sends in one dispatch (or combine) pass.
struct TwoHopTraffic {
  double network_bytes = 0;  // across the tier beyond NVLink: one copy per remote node
  double nvlink_bytes = 0;   // over NVLink: to this node's expert GPUs, and forwarded arrivals
};

// One pass of `tokens` tokens of `token_bytes` each over the expert-parallel group `ep`, with
// N = ep.size / ep.members[0] nodes of m = ep.members[0] GPUs, D_node and D_gpu the expected
// distinct nodes and GPUs a token reaches (ExpectedUnitsHit):
//   network = tokens · D_node · (N − 1) / N · token_bytes
//   nvlink  = tokens · D_gpu · (m − 1) / m · token_bytes
// (one node: the network leg is empty and NVLink carries the copies to the other m − 1 GPUs).
TwoHopTraffic TwoHopBytes(const CostGraph& d, double tokens, double token_bytes,
                          const GroupPlacement& ep);

// The fractions of each leg's line rate a pass moves at: DeepEP's measured ones are in
// cost/deepep_rates.h (DeepEpFractions).
struct TwoHopFractions {
  double nvlink = 0, network = 0;
};

// The bytes per second of the two legs at `f` of their line rates: the innermost tier's, and the
// slowest tier the group crosses beyond it (its oversubscription applied).
struct TwoHopRates {
  double nvlink_bytes_per_s = 0, network_bytes_per_s = 0;
};
TwoHopRates TwoHopRatesOf(const Cluster& c, const GroupPlacement& ep, const TwoHopFractions& f);

// Seconds of one pass: the slowest tier's latency plus the slower of the two legs, which the
// kernels pipeline (network chunks are forwarded over NVLink as they arrive). The legs run at
// `rates` (DeepEP's measured fractions: TwoHopRatesOf) or, without them, at the links' all-to-all
// rates.
double TwoHopSeconds(const TwoHopTraffic& traffic, const GroupPlacement& ep,
                     const NetworkLinks& links, const TwoHopRates* rates = nullptr);

// Whether a plan dispatches in two hops: DualPipe plans, and Megatron-Core's DeepEP dispatcher.
inline bool UsesTwoHop(const PlanShape& p) {
  return p.dualpipe || p.kernels.moe_deepep || p.kernels.moe_hybridep;
}

// Whose kernels move a two-hop pass: HybridEP's or DeepEP's (their measured rates,
// cost/deepep_rates.h; HybridEP takes precedence), else DualPipe's (the links' all-to-all rates).
enum class TwoHopEngine { kLinks, kDeepEp, kHybridEp };
inline TwoHopEngine TwoHopEngineOf(const PlanShape& p) {
  if (p.kernels.moe_hybridep) return TwoHopEngine::kHybridEp;
  return p.kernels.moe_deepep ? TwoHopEngine::kDeepEp : TwoHopEngine::kLinks;
}

// The two passes each way of a plan's two-hop dispatch, per GPU, for the t/tp local tokens at the
// busiest rank's load: the dispatch (FP8, kFp8DispatchBytes per element, under DeepSeek-V3's FP8
// recipe: DualPipe plans with precision fp8; else bf16) and the combine (bf16).
struct TwoHopPasses {
  TwoHopTraffic dispatch, combine;
  bool fp8_dispatch = false;
};
TwoHopPasses TwoHopPassesOf(const CostGraph& d, const PlanShape& p);

// Seconds of one dispatch pass plus one combine pass: under DeepEP or HybridEP each at that
// library's measured fractions of line rate (EngineFractions: DeepEpFractions, by the nodes the
// group spans, or HybridEpFractions), otherwise (DualPipe's kernels) at the links' all-to-all
// rates (DeepSeek-V3 report §3.2.2).
double TwoHopPassPairSeconds(const TwoHopPasses& hops, const Cluster& c, const GroupPlacement& ep,
                             const NetworkLinks& links, TwoHopEngine engine);

}  // namespace paraplan
