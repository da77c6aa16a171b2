// Full recompute through PyTorch's non-reentrant checkpoint (plan/kernel_recipe.h,
// recompute_early_stop): the recompute stops at the last saved tensor, so a dense layer's MLP down
// projection is not redone; an MoE layer and every other recompute mode are untouched.
#include <catch2/catch.hpp>
#include <cstring>
#include <vector>

#include "cost/layer_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

struct Layer {
  LayerCost cost;
  double mlp_down_fwd_s = 0;
};

Layer Cost(const ModelSpec& model, int kind, Recompute recompute, bool early_stop) {
  const CostGraph d = BuildCostGraph(model);
  const Cluster c = test::DgxH100();
  ParallelPlan p;
  p.micro_batch = 2;
  p.global_batch = 2;
  p.recompute = recompute;
  p.kernels.fusion = Fusion::kCompile;
  p.kernels.recompute_early_stop = early_stop;
  std::vector<LayerOpRow> rows;
  Layer out;
  out.cost = ComputeLayerCost(d, kind, MakePlanShape(d, p, c), c, ResolveNetworkLinks(c), &rows);
  for (const LayerOpRow& r : rows) {
    if (std::strcmp(r.name, "mlp down") == 0) out.mlp_down_fwd_s = r.fwd_s;
  }
  return out;
}

}  // namespace

TEST_CASE("PyTorch's non-reentrant checkpoint does not redo a dense layer's MLP down projection",
          "[cost][recompute]") {
  const Layer full = Cost(test::Llama3_70B(), 0, Recompute::kFull, false);
  const Layer early = Cost(test::Llama3_70B(), 0, Recompute::kFull, true);
  REQUIRE(full.mlp_down_fwd_s > 0);
  // Reentrant (Megatron-LM, DeepSpeed): the whole forward again.
  CHECK(full.cost.recompute_s == Approx(full.cost.fwd_s));
  // Non-reentrant: everything but the last GEMM, whose output nothing in the backward reads.
  CHECK(early.cost.recompute_s == Approx(full.cost.fwd_s - full.mlp_down_fwd_s));
  CHECK(early.cost.fwd_s == Approx(full.cost.fwd_s));
  CHECK(early.cost.bwd_s == Approx(full.cost.bwd_s));
  // The MLP down projection is a quarter of a Llama layer's GEMM FLOPs (h x ffn of h(2h + 2kv)
  // + 3 h x ffn): the recompute saved is of that order, never the whole forward.
  const double saved = 1 - early.cost.recompute_s / full.cost.recompute_s;
  CHECK(saved > 0.15);
  CHECK(saved < 0.35);
}

TEST_CASE("early stop leaves MoE layers and the other recompute modes as they were",
          "[cost][recompute]") {
  // An MoE layer stays recomputed whole (cost/layer_cost.cpp).
  const Layer moe = Cost(test::Mixtral8x7B(), 1, Recompute::kFull, false);
  const Layer moe_early = Cost(test::Mixtral8x7B(), 1, Recompute::kFull, true);
  CHECK(moe_early.cost.recompute_s == Approx(moe.cost.recompute_s));
  for (Recompute r : {Recompute::kNone, Recompute::kSelective, Recompute::kOp}) {
    CHECK(Cost(test::Llama3_70B(), 0, r, true).cost.recompute_s ==
          Approx(Cost(test::Llama3_70B(), 0, r, false).cost.recompute_s));
  }
}
