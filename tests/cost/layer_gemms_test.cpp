// The cost model walks the layer graph: for every shipped model, the GEMM rows of explain's
// per-op table (ComputeLayerOps, the rows ComputeLayerCost sums) at tp = 1 add up to the graph's
// forward GEMM FLOPs of that layer kind (LayerSummary::fwd_flops_no_attn_per_token) × tokens,
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "config/resolve.h"
#include "cost/layer_ops.h"
#include "cost/model_dims.h"
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
