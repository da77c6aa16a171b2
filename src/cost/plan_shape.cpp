#include "cost/plan_shape.h"

#include <algorithm>
#include <string>

#include "hardware/gpu_family.h"

namespace paraplan {

bool Fp8AnyLayout(const GpuSpec& gpu) {
  // GpuFamily parses the name (a table lookup, upper-cased); a search asks about the same GPU for
  // every plan it evaluates, so each thread keeps its last answer (cachegrind: ~0.17 G
  // instructions of 19 G for DeepSeek-V3 on 131,072 GB200 without it).
  thread_local std::string last_name;
  thread_local bool last_any = false;
  if (gpu.name != last_name) {
    last_name = gpu.name;
    last_any = GpuFamily(gpu.name) == kBlackwell;
  }
  return last_any;
}

PlanShape MakePlanShape(const CostGraph& d, const ParallelPlan& plan, const Cluster& cluster) {
  return MakePlanShape(d, plan, PlacePlan(plan, cluster), cluster.gpu);
}

PlanShape MakePlanShape(const CostGraph& d, const ParallelPlan& plan, const PlanPlacement& groups,
                        const GpuSpec& gpu) {
  PlanShape p;
  p.seq = static_cast<double>(plan.seq_len > 0 ? plan.seq_len : d.seq_len);
  p.tp = static_cast<double>(plan.tp);
  p.cp = static_cast<double>(plan.cp);
  p.ep = static_cast<double>(plan.ep);
  p.etp = static_cast<double>(plan.etp);
  p.tokens = static_cast<double>(plan.micro_batch) * p.seq / p.cp;
  p.sequence_parallel = plan.sequence_parallel && plan.tp > 1;
  p.norm_tokens = p.sequence_parallel ? p.tokens / p.tp : p.tokens;
  p.moe_load = std::max(plan.moe_imbalance, 1.0);
  p.moe_dropping = plan.moe_routing == MoeRouting::kDrop;
  if (p.moe_dropping) p.moe_load = std::min(p.moe_load, plan.moe_capacity_factor);
  // --moe-pad-expert-input-to-capacity: every expert computes exactly its capacity, capacity
  // factor x its mean tokens, whatever the load (moe_utils.py topk_softmax_with_capacity).
  if (p.moe_dropping && plan.kernels.moe_pad_to_capacity) p.moe_load = plan.moe_capacity_factor;
  p.recompute = plan.recompute;
  p.precision = plan.precision;
  p.recipe = plan.recipe;
  p.kernels = plan.kernels;
  p.overlap_tp = plan.overlap_tp_comm;
  p.overlap_ep = plan.overlap_ep_comm;
  p.dualpipe = plan.schedule == Schedule::kDualPipe;
  p.groups = groups;
  p.fp8_any_layout = Fp8AnyLayout(gpu);
  return p;
}

}  // namespace paraplan
