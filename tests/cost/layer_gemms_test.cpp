// The cost model walks the layer graph: for every shipped model, the GEMM rows of explain's
// per-op table (ComputeLayerOps, the rows ComputeLayerCost sums) at tp = 1 add up to the graph's
// forward GEMM FLOPs of that layer kind (LayerSummary::fwd_flops_no_attn_per_token) × tokens,
// and MFU's forward FLOPs per token are the graph's GEMMs, attention core and logits.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "config/resolve.h"
#include "cost/cost_graph.h"
#include "cost/layer_ops.h"
#include "model/layer_graph.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

LayerKind GraphKind(const std::string& kind) {
  if (kind == "moe") return LayerKind::kMoe;
  if (kind == "moe sliding") return LayerKind::kMoeSliding;
  if (kind == "dense sliding") return LayerKind::kDenseSliding;
  return LayerKind::kDense;
}

}  // namespace

TEST_CASE("the cost model's GEMMs are the layer graph's", "[cost]") {
  int models = 0;
  const Cluster cluster = test::DgxH100();
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(PARAPLAN_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() != ".yaml") continue;
    const ModelSpec m = LoadModel(entry.path().string());
    const LayerGraph g = BuildLayerGraph(m);
    INFO(m.name);
    ++models;
    ParallelPlan plan;
    plan.micro_batch = 2;
    plan.global_batch = 2;
    plan.seq_len = 4096;
    const double tokens = 2.0 * 4096.0;
    int kinds = 0;
    for (const LayerOpsTable& t : ComputeLayerOps(m, cluster, plan)) {
      INFO(t.kind);
      ++kinds;
      const LayerBlock& b = g.Block(GraphKind(t.kind));
      CHECK(t.layers == b.count);
      double gemm_flops = 0, core_flops = 0;
      for (const LayerOpRow& row : t.rows) {
        (std::string(row.name) == "core attention" ? core_flops : gemm_flops) += row.flops;
      }
      CHECK(gemm_flops == Approx(b.summary.fwd_flops_no_attn_per_token * tokens).epsilon(1e-12));
      if (b.summary.window == 0) {  // full causal attention: seq/2 context per token
        CHECK(core_flops == Approx(b.summary.AttnCoreFwdFlopsPerToken(4096) * tokens));
      }
    }
    CHECK(kinds > 0);
  }
  CHECK(models >= 10);
}

TEST_CASE("MFU's forward FLOPs are the layer graph's", "[cost]") {
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(PARAPLAN_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() != ".yaml") continue;
    const ModelSpec m = LoadModel(entry.path().string());
    const LayerGraph g = BuildLayerGraph(m);
    const CostGraph d = BuildCostGraph(m);
    INFO(m.name);
    // The main model's layers and output head (MTP modules are not model FLOPs); GEMMs only:
    // norms and the other element-wise ops are not counted.
    double gemms = g.Block(LayerKind::kLogits).summary.fwd_flops_no_attn_per_token;
    double attention = 0;
    bool sliding = false;
    for (LayerKind k :
         {LayerKind::kDense, LayerKind::kDenseSliding, LayerKind::kMoe, LayerKind::kMoeSliding}) {
      const LayerBlock& b = g.Block(k);
      const double n = static_cast<double>(b.count);
      gemms += n * b.summary.fwd_flops_no_attn_per_token;
      attention += n * b.summary.AttnCoreFwdFlopsPerToken(4096);
      sliding = sliding || (b.count > 0 && b.summary.window > 0);
    }
    CHECK(ForwardFlopsPerToken(d, 0) == Approx(gemms).epsilon(1e-12));  // no attention at s = 0
    // Full causal attention: the graph's s/2 context (a sliding window: min(window, s/2)).
    if (!sliding) CHECK(ForwardFlopsPerToken(d, 4096) == Approx(gemms + attention).epsilon(1e-12));
  }
}
