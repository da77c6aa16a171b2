#include "cost/zero3_comm.h"

#include <catch2/catch.hpp>

#include "cost/compute_cost.h"
#include "cost/cost_graph.h"
#include "cost/plan_evaluation.h"
#include "test_specs.h"

using namespace paraplan;

TEST_CASE("ZeRO-3 gathers and reduce-scatters layer by layer", "[cost]") {
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const GroupPlacement dp = PlaceGroup(64, 8, c);  // one GPU per node
  const GroupPlacement one = PlaceGroup(1, 1, c);
  std::array<LayerCost, kLayerKinds> kinds{};
  kinds[0].params_local = 100e6;
  const std::array<int32_t, kLayerKinds> counts{10, 0, 0, 0};
  const Zero3Comm z = Zero3StageComm(counts, kinds, 0, dp, one, 4.0, links);
  const double gather = CollectiveSeconds(CollectiveOp::kAllGather, 200e6, dp, links);
  const double rs = CollectiveSeconds(CollectiveOp::kReduceScatter, 400e6, dp, links);
  CHECK(z.gather_s == Approx(10 * gather));
  CHECK(z.reduce_scatter_s == Approx(10 * rs));
  CHECK(z.first_gather_s == Approx(gather));
  CHECK(z.last_reduce_scatter_s == Approx(rs));
  // Ten per-layer gathers cost more than one of the whole stage: each pays the latency.
  CHECK(z.gather_s > CollectiveSeconds(CollectiveOp::kAllGather, 2e9, dp, links));
  // No data parallelism, nothing to move.
  const Zero3Comm none = Zero3StageComm(counts, kinds, 0, one, one, 4.0, links);
  CHECK(none.gather_s == 0);
  CHECK(none.reduce_scatter_s == 0);
}

TEST_CASE("ZeRO-3's backward gathers and reduce-scatters share the links", "[cost]") {
  Zero3Comm z;
  z.gather_s = 1.0;
  z.gather_bwd_s = 1.0;
  z.reduce_scatter_s = 2.0;
  z.first_gather_s = 0.1;
  z.last_reduce_scatter_s = 0.2;
  const Zero3Exposed hidden = Zero3ExposedSeconds(z, 5.0, 10.0, true);
  CHECK(hidden.forward_s == Approx(0.1));         // the first layer's gather
  CHECK(hidden.backward_s == Approx(0.1 + 0.2));  // first gather + last reduce-scatter
  // Backward compute of 2 s cannot hide 1 s of gathers and 2 s of reduce-scatters.
  const Zero3Exposed tight = Zero3ExposedSeconds(z, 0.5, 2.0, true);
  CHECK(tight.forward_s == Approx(0.5));
  CHECK(tight.backward_s == Approx(1.0));
  const Zero3Exposed serial = Zero3ExposedSeconds(z, 5.0, 10.0, false);
  CHECK(serial.forward_s == Approx(1.0));
  CHECK(serial.backward_s == Approx(3.0));
}

TEST_CASE("TP across nodes keeps the NICs busy, a ZeRO-3 group crossing them shares that",
          "[cost]") {
  const ModelSpec m = test::Gpt3_175B();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.tp = 16;
  p.dp = 4;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 8;
  p.sequence_parallel = true;
  PlanEvaluation across;
  EvaluatePlanTime(d, c, links, p, &across);
  const LayerCost& layer = across.kinds[0];
  // The tp=16 group spans two 8-GPU nodes: its all-gathers and reduce-scatters use the NICs.
  CHECK(layer.net_fwd_s > 0);
  CHECK(layer.net_bwd_s == Approx(layer.net_fwd_s));
  p.tp = 8;
  p.dp = 8;
  PlanEvaluation inside;
  EvaluatePlanTime(d, c, links, p, &inside);
  CHECK(inside.kinds[0].net_fwd_s == 0);  // tp=8 stays on NVLink
  // The stage's ZeRO-3 exposure is at least what the pass leaves after the TP traffic.
  const StageDp& dp = across.dp[0];
  const double layers = static_cast<double>(d.layers);
  const double f_before = across.times[0].f - across.comm[0].zero3_s;  // at most the pre-ZeRO f
  CHECK(across.comm[0].zero3_s >=
        dp.zero3.gather_s - std::max(0.0, f_before - layers * layer.net_fwd_s) - 1e-9);
}

TEST_CASE("FSDP2 copies each gathered unit out and each gradient in on the compute stream",
          "[cost]") {
  // split_with_sizes_copy: read and write 2 B per parameter after each gather; _chunk_cat:
  // read the 2 B gradient, write it in the 4 B reduce dtype.
  const Fsdp2Copy fp32 = Fsdp2CopyBytes(4.0);
  CHECK(fp32.forward == Approx(4.0));
  CHECK(fp32.backward == Approx(4.0 + 6.0));
  CHECK(Fsdp2CopyBytes(2.0).backward == Approx(8.0));

  const ModelSpec m = test::Llama3_70B();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 8;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 8;
  PlanEvaluation te;
  EvaluatePlanTime(d, c, links, p, &te);
  CHECK(te.dp[0].zero3.copy_fwd_s == 0);  // Megatron-Core / TE: not FSDP2
  p.kernels.fusion = Fusion::kEager;
  PlanEvaluation fsdp2;
  EvaluatePlanTime(d, c, links, p, &fsdp2);
  // Every parameter of the one stage is gathered (and its gradient reduced) each micro-batch.
  const double params =
      static_cast<double>(d.layers) * fsdp2.kinds[0].params_local + 2 * d.embedding_params;
  const double grad = 4.0;  // fp32 reduce, the default dp_comm_dtype
  CHECK(fsdp2.dp[0].zero3.copy_fwd_s == Approx(MemoryBoundSeconds(c, params * 4.0)));
  CHECK(fsdp2.dp[0].zero3.copy_bwd_s == Approx(MemoryBoundSeconds(c, params * (6.0 + grad))));
  // They sit on the critical path: the stage's passes grow by them beside what eager costs.
  CHECK(fsdp2.times[0].f >= te.times[0].f + fsdp2.dp[0].zero3.copy_fwd_s);
  // Without data parallelism there is nothing gathered and nothing copied.
  p.dp = 1;
  p.global_batch = 1;
  PlanEvaluation single;
  EvaluatePlanTime(d, c, links, p, &single);
  CHECK(single.dp[0].zero3.copy_fwd_s == 0);
}

TEST_CASE(
    "DeepSpeed's ZeRO-3 moves each gradient three times in the backward and skips FSDP2's copies",
    "[cost]") {
  // copy_ into the reduce bucket, reduce_scatter_coalesced's torch.cat and its div_: each reads
  // and writes the gradient dtype once.
  CHECK(DeepSpeedZero3GradCopyBytes(2.0) == Approx(12.0));
  CHECK(DeepSpeedZero3GradCopyBytes(4.0) == Approx(24.0));

  const ModelSpec m = test::Llama3_70B();
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 8;
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 8;
  p.grad_reduce_in_fp32 = false;          // DeepSpeed's engine: bf16 gradients, bf16 reduction
  p.kernels.fusion = Fusion::kEager;      // Hugging Face modelling code under DeepSpeed
  p.kernels.zero3_max_live_params = 1e9;  // DeepSpeed's coordinator named
  PlanEvaluation ds;
  EvaluatePlanTime(d, c, links, p, &ds);
  const double params =
      static_cast<double>(d.layers) * ds.kinds[0].params_local + 2 * d.embedding_params;
  CHECK(ds.dp[0].zero3.copy_fwd_s == 0);  // a fetched parameter is gathered into its own buffer
  CHECK(ds.dp[0].zero3.copy_bwd_s == Approx(MemoryBoundSeconds(c, params * 12.0)));
  // The same plan under FSDP2 (no coordinator): its forward copy-out, its backward 4 + 2 + 2 B.
  p.kernels.zero3_max_live_params = 0;
  PlanEvaluation fsdp2;
  EvaluatePlanTime(d, c, links, p, &fsdp2);
  CHECK(fsdp2.dp[0].zero3.copy_fwd_s == Approx(MemoryBoundSeconds(c, params * 4.0)));
  CHECK(fsdp2.dp[0].zero3.copy_bwd_s == Approx(MemoryBoundSeconds(c, params * 8.0)));
  // DeepSpeed under Megatron-DeepSpeed's layers (no PyTorch fusion profile) pays them too.
  p.kernels.fusion = Fusion::kTe;
  p.kernels.zero3_max_live_params = 1e9;
  PlanEvaluation mds;
  EvaluatePlanTime(d, c, links, p, &mds);
  CHECK(mds.dp[0].zero3.copy_bwd_s == Approx(ds.dp[0].zero3.copy_bwd_s));
  // Without data parallelism nothing is reduced and nothing copied.
  p.dp = 1;
  p.global_batch = 1;
  PlanEvaluation single;
  EvaluatePlanTime(d, c, links, p, &single);
  CHECK(single.dp[0].zero3.copy_bwd_s == 0);
}

TEST_CASE("ZeRO-3 gathers the layers' weights at their byte, the embedding in bf16", "[cost]") {
  const Cluster c = test::DgxH100();
  const NetworkLinks links = ResolveNetworkLinks(c);
  const GroupPlacement dp = PlaceGroup(64, 8, c);
  const GroupPlacement one = PlaceGroup(1, 1, c);
  std::array<LayerCost, kLayerKinds> kinds{};
  kinds[0].params_local = 100e6;
  const std::array<int32_t, kLayerKinds> counts{10, 0, 0, 0};
  // torchao's float8 all-gather: 1 B per layer weight, the embedding unit still 2 B.
  const Zero3Comm z = Zero3StageComm(counts, kinds, 50e6, dp, one, 4.0, links, 1.0);
  const double layer = CollectiveSeconds(CollectiveOp::kAllGather, 100e6, dp, links);
  const double embed = CollectiveSeconds(CollectiveOp::kAllGather, 100e6, dp, links);
  CHECK(z.gather_s == Approx(10 * layer + embed));
  // FSDP2's copy-out moves the gathered byte; the gradients' copy-in stays bf16 in.
  CHECK(Fsdp2CopyBytes(4.0, 1.0).forward == Approx(2.0));
  CHECK(Fsdp2CopyBytes(4.0, 1.0).backward == Approx(2.0 + 2.0 + 4.0));
  CHECK(Fsdp2CopyBytes(4.0).forward == Approx(4.0));
}
