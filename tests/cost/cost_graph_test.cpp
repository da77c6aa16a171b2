// The cost model's compact summary and `model show` read one layer graph: for every shipped
// model, CostGraph' weights per layer kind are the graph's, and its totals follow from them.
#include "cost/cost_graph.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "config/resolve.h"
#include "model/layer_graph.h"

using namespace paraplan;

namespace {

double Params(const LayerGraph& g, LayerKind kind) {
  return g.Block(kind).summary.params;
}

}  // namespace

TEST_CASE("CostGraph counts the weights of the layer graph", "[cost]") {
  int models = 0;
  for (const auto& entry :
       std::filesystem::directory_iterator(std::string(PARAPLAN_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() != ".yaml") continue;
    const ModelSpec m = LoadModel(entry.path().string());
    const LayerGraph g = BuildLayerGraph(m);
    const CostGraph d = BuildCostGraph(m);
    INFO(m.name);
    ++models;
    const double dense = d.attn_params + d.dense_mlp_params;
    const double moe = d.attn_params + d.moe_expert_params + d.moe_other_params;
    double layers = 0;
    for (LayerKind k : {LayerKind::kDense, LayerKind::kDenseSliding}) {
      if (g.Has(k)) CHECK(Params(g, k) == dense);
      layers += static_cast<double>(g.Block(k).count) * Params(g, k);
    }
    for (LayerKind k : {LayerKind::kMoe, LayerKind::kMoeSliding}) {
      if (!g.Has(k)) continue;
      CHECK(Params(g, k) == moe);
      CHECK(g.Block(k).summary.expert_params == d.moe_expert_params);
      layers += static_cast<double>(g.Block(k).count) * Params(g, k);
    }
    CHECK(g.Block(LayerKind::kEmbedding).ops.front().params == d.embedding_params);
    // TotalParams: the transformer layers plus embedding and (untied) output head.
    const double head = m.tied_embeddings ? 0.0 : d.embedding_params;
    CHECK(TotalParams(d) == Approx(layers + d.embedding_params + head).epsilon(1e-12));
  }
  CHECK(models >= 10);
}
