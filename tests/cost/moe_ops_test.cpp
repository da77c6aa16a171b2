// The MoE layer's router, token permute and host syncs (issue 17), against hand arithmetic from
// the counts in docs/framework-fusion.md, "MoE layer".
#include "cost/moe_ops.h"

#include <catch2/catch.hpp>
#include <string>

#include "cost/layer_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// Mixtral 8x7B: h 4096, 8 experts, top-2, expert width 14336; one sequence of 4096 tokens.
constexpr double kMoeT = 4096, kMoeH = 4096, kMoeE = 8;

ParallelPlan OneGpuMoe() {
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  return p;
}

PlanShape MoeShape(const CostGraph& d, const ParallelPlan& p) {
  return MakePlanShape(d, p, test::DgxH100());
}

const ElementwiseOp* FindMoeOp(const LayerElementwise& ew, const std::string& name) {
  for (size_t i = 0; i < ew.count; ++i) {
    if (ew.ops[i].name == name) return &ew.ops[i];
  }
  return nullptr;
}

}  // namespace

TEST_CASE("the unfused router moves 67 bytes per token and expert in 28 kernels", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  const PlanShape p = MoeShape(d, OneGpuMoe());
  REQUIRE(p.tokens == kMoeT);
  const ElementwiseOp r = MoeRouterOp(d, p);
  // routing 30 B + aux loss 36 B + the dispatcher's counts 1 B; 12 + 14 + 2 kernels (no EP/TP).
  CHECK(r.fwd_bytes == Approx(67 * kMoeT * kMoeE));
  CHECK(r.fwd_kernels == 28);
  CHECK(r.bwd_bytes == Approx(22 * kMoeT * kMoeE));
  CHECK(r.bwd_kernels == 13);
  // With EP the dispatcher computes the all-to-all splits: 7 kernels; tp 2 halves the tokens.
  ParallelPlan ep = OneGpuMoe();
  ep.tp = 2;
  ep.ep = 2;
  const ElementwiseOp r2 = MoeRouterOp(d, MoeShape(d, ep));
  CHECK(r2.fwd_bytes == Approx(67 * kMoeT / 2 * kMoeE));
  CHECK(r2.fwd_kernels == 33);
}

TEST_CASE("the fused router and token dropping", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.kernels.moe_router_fusion = true;
  const ElementwiseOp fused = MoeRouterOp(d, MoeShape(d, p));
  CHECK(fused.fwd_bytes == Approx(27 * kMoeT * kMoeE));  // TE's 26 B + the dispatcher's 1 B
  CHECK(fused.fwd_kernels == 7 + 2);
  CHECK(fused.bwd_bytes == Approx(29 * kMoeT * kMoeE));
  CHECK(fused.bwd_kernels == 6);
  // Dropping adds the capacity mask (unfused in every version): 16 B, 6 kernels; 10 B, 2 back.
  p.moe_routing = MoeRouting::kDrop;
  const ElementwiseOp drop = MoeRouterOp(d, MoeShape(d, p));
  CHECK(drop.fwd_bytes == Approx(43 * kMoeT * kMoeE));
  CHECK(drop.fwd_kernels == 15);
  CHECK(drop.bwd_bytes == Approx(39 * kMoeT * kMoeE));
  CHECK(drop.bwd_kernels == 8);
}

TEST_CASE("the token permute moves each routed copy's hidden vector", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  const double copies = 2 * kMoeT, map = kMoeT * kMoeE;
  // 8 local experts: the received copies are sorted by expert going in and coming out.
  const double sort = copies * (8 * kMoeH + 4);
  const ElementwiseOp unfused = MoePermuteOp(d, MoeShape(d, p));
  CHECK(unfused.fwd_bytes == Approx(8 * map + 10 * kMoeH * copies + 2 * kMoeH * kMoeT + sort));
  CHECK(unfused.bwd_bytes == Approx(9 * map + 10 * kMoeH * copies + 2 * kMoeH * kMoeT + sort));
  CHECK(unfused.fwd_kernels == 15);
  CHECK(unfused.bwd_kernels == 9);
  // The older path that scales the expert output in the unpermute selects the probs again.
  p.recipe.moe_probs = MoeProbs::kOutput;
  const ElementwiseOp output = MoePermuteOp(d, MoeShape(d, p));
  CHECK(output.fwd_bytes - unfused.fwd_bytes == Approx(7 * map + 4 * kMoeH * copies));
  CHECK(output.fwd_kernels == 21);
  p.recipe.moe_probs = MoeProbs::kAuto;
  p.kernels.moe_permute_fusion = true;
  const ElementwiseOp fused = MoePermuteOp(d, MoeShape(d, p));
  CHECK(fused.fwd_bytes == Approx(41 * map + 6 * kMoeH * copies + 2 * kMoeH * kMoeT + sort));
  CHECK(fused.bwd_bytes == Approx(16 * map + 6 * kMoeH * copies + 2 * kMoeH * kMoeT + sort));
  CHECK(fused.fwd_kernels == 8);
  CHECK(fused.bwd_kernels == 4);
  // One expert per rank (ep 8) sorts nothing.
  p.ep = 8;
  p.dp = 8;
  const ElementwiseOp one = MoePermuteOp(d, MoeShape(d, p));
  CHECK(one.fwd_kernels == 4);
  CHECK(one.fwd_bytes == Approx(41 * map + 6 * kMoeH * copies + 2 * kMoeH * kMoeT));
}

TEST_CASE("a DeepEP dispatch permutes the received tokens, with no chunk sort", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.ep = 2;
  p.dp = 2;
  p.kernels.moe_deepep = true;
  // 4 local experts per rank. A token's top-2 of 8 experts reach 2 (1 - C(4,2)/C(8,2)) = 11/7
  // distinct GPUs of 2, so each rank receives 11/7 kT tokens and 2 kT copies; the map is
  // [received, local experts]; the sender permutes nothing and nothing is sorted.
  const double received = kMoeT * 11.0 / 7.0, copies = 2 * kMoeT, map = received * 4;
  const ElementwiseOp deepep = MoePermuteOp(d, MoeShape(d, p));
  CHECK(deepep.fwd_bytes == Approx(8 * map + 10 * kMoeH * copies + 2 * kMoeH * received));
  CHECK(deepep.bwd_bytes == Approx(9 * map + 10 * kMoeH * copies + 2 * kMoeH * received));
  CHECK(deepep.fwd_kernels == 12);
  CHECK(deepep.bwd_kernels == 6);
  // The alltoall dispatcher on the same plan sorts the received copies by expert both ways.
  p.kernels.moe_deepep = false;
  const ElementwiseOp alltoall = MoePermuteOp(d, MoeShape(d, p));
  CHECK(alltoall.fwd_kernels == 15);
  CHECK(alltoall.fwd_bytes - (8 * kMoeT * kMoeE + 10 * kMoeH * copies + 2 * kMoeH * kMoeT) ==
        Approx(copies * (8 * kMoeH + 4)));
}

TEST_CASE("a dropless dispatch synchronises with the host, a padded one does not", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  // The dispatcher's event sync and the unfused permute's two masked_selects.
  CHECK(MoeHostSyncs(MoeShape(d, p)) == 3);
  CHECK(MoeHostSyncOp(MoeShape(d, p)).fwd_kernels == 6);  // D2H copy + relaunch per sync
  CHECK(MoeHostSyncOp(MoeShape(d, p)).bwd_kernels == 0);
  p.kernels.moe_permute_fusion = true;
  CHECK(MoeHostSyncs(MoeShape(d, p)) == 1);
  p.moe_routing = MoeRouting::kDrop;  // dropping without padding still syncs
  CHECK(MoeHostSyncs(MoeShape(d, p)) == 1);
  p.kernels.moe_pad_to_capacity = true;
  CHECK(MoeHostSyncs(MoeShape(d, p)) == 0);
  const LayerElementwise padded = ComputeLayerElementwise(d, 1, MoeShape(d, p));
  CHECK(FindMoeOp(padded, "moe host sync") == nullptr);
  // torchtitan syncs for its all-to-all splits, only with EP.
  ParallelPlan tt = OneGpuMoe();
  tt.kernels.fusion = Fusion::kEager;
  CHECK(MoeHostSyncs(MoeShape(d, tt)) == 0);
  tt.ep = 2;
  tt.dp = 2;
  CHECK(MoeHostSyncs(MoeShape(d, tt)) == 1);
}

TEST_CASE("padding to capacity computes capacity whatever the load", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.moe_routing = MoeRouting::kDrop;
  p.moe_capacity_factor = 1.25;
  CHECK(MoeShape(d, p).moe_load == 1.0);  // dropping: min(imbalance 1, capacity)
  p.moe_imbalance = 2;
  CHECK(MoeShape(d, p).moe_load == 1.25);
  p.moe_imbalance = 1;
  p.kernels.moe_pad_to_capacity = true;
  const PlanShape padded = MoeShape(d, p);
  CHECK(padded.moe_load == 1.25);  // every expert gets exactly its capacity
  CHECK(RoutedTokens(d, padded) == Approx(2 * kMoeT * 1.25));
  // The padded permute sends capacity x experts copies.
  const ElementwiseOp permute = MoePermuteOp(d, padded);
  const double copies = 2 * kMoeT * 1.25;
  CHECK(permute.fwd_bytes == Approx(8 * kMoeT * kMoeE + 10 * kMoeH * copies + 2 * kMoeH * kMoeT +
                                    copies * (8 * kMoeH + 4)));
}

TEST_CASE("without grouped GEMM every local expert launches its own kernels", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.kernels.fusion = Fusion::kCompile;  // torchtitan: torch._grouped_mm, one kernel per call
  const double grouped = LayerMatmulKernels(d, 1, MoeShape(d, p));
  CHECK(ExpertGemmKernels(d, 1, MoeShape(d, p)) == 2);
  CHECK(ExpertGemmCalls(d, 1, MoeShape(d, p)) == 2);
  CHECK(ExpertGemmKernels(d, 0, MoeShape(d, p)) == 0);
  p.kernels.moe_grouped_gemm = false;
  CHECK(ExpertGemmKernels(d, 1, MoeShape(d, p)) == 16);  // up and down for each of 8 experts
  CHECK(ExpertGemmCalls(d, 1, MoeShape(d, p)) == 16);
  CHECK(LayerMatmulKernels(d, 1, MoeShape(d, p)) == grouped + 14);
  const LayerElementwise ew = ComputeLayerElementwise(d, 1, MoeShape(d, p));
  REQUIRE(FindMoeOp(ew, "activation"));
  CHECK(FindMoeOp(ew, "activation")->fwd_kernels == 8);
  p.ep = 4;  // 2 local experts
  p.dp = 4;
  CHECK(ExpertGemmKernels(d, 1, MoeShape(d, p)) == 4);
}

TEST_CASE("Transformer Engine's grouped GEMM launches one cuBLAS GEMM per local expert", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.kernels.fusion = Fusion::kTe;
  p.kernels.moe_grouped_gemm = true;
  // TEGroupedMLP -> GroupedLinear -> nvte_multi_stream_cublas_gemm: one GEMM per expert, one
  // grouped call (and one multi-tensor fp8 cast) per projection.
  CHECK(ExpertGemmKernels(d, 1, MoeShape(d, p)) == 16);
  CHECK(ExpertGemmCalls(d, 1, MoeShape(d, p)) == 2);
  const double te = LayerMatmulKernels(d, 1, MoeShape(d, p));
  p.kernels.fusion = Fusion::kEager;
  CHECK(LayerMatmulKernels(d, 1, MoeShape(d, p)) < te);
  p.kernels.fusion = Fusion::kTe;
  p.kernels.moe_torch_grouped_mm = true;  // AutoModel's `experts: torch_mm` under TE kernels
  CHECK(ExpertGemmKernels(d, 1, MoeShape(d, p)) == 2);
  p.kernels.moe_torch_grouped_mm = false;
  p.ep = 8;  // one local expert: the loop is one GEMM per projection
  p.dp = 8;
  CHECK(ExpertGemmKernels(d, 1, MoeShape(d, p)) == 2);
}

TEST_CASE("under CUDA graphs a dropless MoE layer launches its experts eagerly", "[cost]") {
  Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.kernels.cuda_graphs = true;
  // Every kernel at the replay gap (kernel_launch_us = 1 µs) against eager launches of 5 µs:
  // the difference is the eager kernels x 4 µs: activation 1 + permute 15 + host sync 6 + the
  // 16 expert GEMMs forward (TE's grouped GEMM: up and down per expert); 2 + 9 + 0 + 32 backward.
  c.efficiency.kernel_launch_us = 1;
  const LayerCost all_graph = ComputeLayerCost(d, 1, MoeShape(d, p), c);
  c.efficiency.kernel_launch_us = 5;
  const LayerCost dropless = ComputeLayerCost(d, 1, MoeShape(d, p), c);
  CHECK(dropless.fwd_s - all_graph.fwd_s == Approx(38 * 4e-6));
  CHECK(dropless.bwd_s - all_graph.bwd_s == Approx((2 + 9 + 32) * 4e-6));
  // Padded to capacity the whole layer stays in the graph.
  p.moe_routing = MoeRouting::kDrop;
  p.kernels.moe_pad_to_capacity = true;
  CHECK_FALSE(MoeExpertsOutsideGraph(MoeShape(d, p)));
  const LayerCost padded = ComputeLayerCost(d, 1, MoeShape(d, p), c);
  c.efficiency.kernel_launch_us = 1;
  CHECK(padded.fwd_s == Approx(ComputeLayerCost(d, 1, MoeShape(d, p), c).fwd_s));
}

TEST_CASE("a HybridEP dispatch permutes inside its kernel and syncs with the host once", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Mixtral8x7B());
  ParallelPlan p = OneGpuMoe();
  p.ep = 2;
  p.dp = 2;
  p.kernels.moe_hybridep = true;
  // dispatch_with_permute writes the received tokens in per-expert order: no permute pass, and
  // none of the unfused permute's masked_select syncs, only the blocking dispatch's own.
  const ElementwiseOp permute = MoePermuteOp(d, MoeShape(d, p));
  CHECK(permute.fwd_bytes == 0);
  CHECK(permute.bwd_bytes == 0);
  CHECK(permute.fwd_kernels == 0);
  CHECK(MoeHostSyncs(MoeShape(d, p)) == 1);
  // HybridEP takes precedence over DeepEP when both are set.
  p.kernels.moe_deepep = true;
  CHECK(MoePermuteOp(d, MoeShape(d, p)).fwd_bytes == 0);
  // DeepEP alone permutes the received tokens (above), so it moves bytes.
  p.kernels.moe_hybridep = false;
  CHECK(MoePermuteOp(d, MoeShape(d, p)).fwd_bytes > 0);
}
