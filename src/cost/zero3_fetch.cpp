#include "cost/zero3_fetch.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace paraplan {
namespace {

struct Visit {
  size_t param = 0;  // layer × modules + module
  bool forward = true;
};

// The recorded trace: every layer's modules forward, then per layer from the last the recompute
// (forward order) and the backward (reverse order).
std::vector<Visit> Trace(size_t modules, size_t layers, bool full_recompute) {
  std::vector<Visit> out;
  out.reserve(modules * layers * (full_recompute ? 3 : 2));
  for (size_t l = 0; l < layers; ++l) {
    for (size_t m = 0; m < modules; ++m) out.push_back({l * modules + m, true});
  }
  for (size_t l = layers; l-- > 0;) {
    if (full_recompute) {
      for (size_t m = 0; m < modules; ++m) out.push_back({l * modules + m, false});
    }
    for (size_t m = modules; m-- > 0;) out.push_back({l * modules + m, false});
  }
  return out;
}

}  // namespace

std::vector<FetchGather> DeepSpeedStackFetch(const std::vector<double>& module_elements,
                                             int64_t layers, const DeepSpeedFetchSettings& s,
                                             bool full_recompute) {
  const size_t modules = module_elements.size();
  std::vector<FetchGather> out;
  if (modules == 0 || layers < 1) return out;
  const size_t stack = static_cast<size_t>(layers);
  const std::vector<Visit> trace = Trace(modules, stack, full_recompute);
  const size_t params = modules * stack;
  auto elements = [&](size_t param) { return module_elements[param % modules]; };
  auto persistent = [&](size_t param) { return elements(param) <= s.persistence; };
  std::vector<bool> held(params, false);
  std::vector<size_t> fetched_for(params, 0);  // 1 + the last visit a fetch was popped for
  double available = 0;                        // n_available_params
  size_t queue = 0;                            // the next trace entry not popped
  auto gather = [&](size_t visit, bool on_demand) {
    const size_t p = trace[visit].param;
    if (held[p] || persistent(p)) return;
    held[p] = true;
    available += elements(p);
    out.push_back({elements(p), trace[visit].forward, on_demand});
  };
  for (size_t v = 0; v < trace.size(); ++v) {
    const size_t p = trace[v].param;
    gather(v, v > 0);  // a no-op when prefetched; the first is the pass's (zero3_comm.h floor)
    if (fetched_for[p] <= v) {
      queue = std::max(queue, v + 1);
      fetched_for[p] = v + 1;
    }
    const double budget = std::min(s.max_live - available, s.prefetch_bucket);
    double numel = 0;
    while (budget > 0 && queue < trace.size() && numel < budget) {
      const size_t w = queue++;
      fetched_for[trace[w].param] = w + 1;
      gather(w, false);
      numel += elements(trace[w].param);
    }
    // Release unless used again within the reuse distance (or already fetched for a later use).
    if (persistent(p) || fetched_for[p] > v + 1) continue;
    double traversed = 0;
    bool reused = false;
    for (size_t w = v + 1; w < trace.size() && traversed < s.max_reuse && !reused; ++w) {
      reused = trace[w].param == p;
      traversed += elements(trace[w].param);
    }
    if (!reused) {
      held[p] = false;
      available -= elements(p);
    }
  }
  return out;
}

DeepSpeedFetchSettings DeepSpeedFetchSettingsOf(const KernelRecipe& kernels) {
  DeepSpeedFetchSettings s;
  if (kernels.zero3_max_live_params > 0) s.max_live = kernels.zero3_max_live_params;
  if (kernels.zero3_max_reuse_distance > 0) s.max_reuse = kernels.zero3_max_reuse_distance;
  return s;
}

std::vector<double> DeepSpeedLayerModules(const CostGraph& d, int kind, int64_t tp) {
  std::vector<double> modules;
  const LayerGemms& gemms = d.gemms[static_cast<size_t>(kind)];
  for (size_t i = 0; i < gemms.size; ++i) {
    const LayerGemm& g = gemms.ops[i];
    if (g.expert) continue;
    const double split = g.split == GemmSplit::kReplicated ? 1.0 : static_cast<double>(tp);
    modules.push_back(g.n * g.k * g.count / split);
  }
  return modules;
}

Zero3Comm DeepSpeedStageComm(const CostGraph& d, const ParallelPlan& p,
                             const std::array<int32_t, kLayerKinds>& counts,
                             const std::array<LayerCost, kLayerKinds>& kinds, double embed_params,
                             const GroupPlacement& dense, const GroupPlacement& expert,
                             double grad_bytes, const NetworkLinks& links) {
  // The unit model for what DeepSpeed issues the same way: reduce-scatters, experts, embedding.
  Zero3Comm c = Zero3StageComm(counts, kinds, embed_params, dense, expert, grad_bytes, links);
  if (dense.size < 2) return c;
  const DeepSpeedFetchSettings settings = DeepSpeedFetchSettingsOf(p.kernels);
  const double n = static_cast<double>(dense.size);
  double gather_fwd = 0, gather_bwd = 0, first = 0;
  auto seconds = [&](double elements) {
    return CollectiveSeconds(CollectiveOp::kAllGather, std::ceil(elements / n) * n * 2.0, dense,
                             links);
  };
  for (int k = 0; k < kLayerKinds; ++k) {
    if (counts[k] == 0) continue;
    const std::vector<double> modules = DeepSpeedLayerModules(d, k, p.tp);
    // The unit model's dense gathers of this kind, replaced by the coordinator's.
    const double unit =
        kinds[k].params_local > 0
            ? CollectiveSeconds(CollectiveOp::kAllGather, kinds[k].params_local * 2.0, dense, links)
            : 0.0;
    gather_fwd -= counts[k] * unit;
    gather_bwd -= counts[k] * unit;
    for (const FetchGather& g :
         DeepSpeedStackFetch(modules, counts[k], settings, p.recompute == Recompute::kFull)) {
      const double t = seconds(g.elements);
      (g.forward ? gather_fwd : gather_bwd) += t;
      if (g.on_demand) (g.forward ? c.on_demand_fwd_s : c.on_demand_bwd_s) += t;
      first = std::max(first, t);
    }
  }
  c.gather_s = std::max(0.0, c.gather_s + gather_fwd);
  c.gather_bwd_s = std::max(0.0, c.gather_bwd_s + gather_bwd);
  c.first_gather_s = std::max(first, embed_params > 0 ? seconds(embed_params) : 0.0);
  return c;
}

}  // namespace paraplan
