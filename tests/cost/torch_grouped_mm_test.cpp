// PyTorch's torch._grouped_mm as a ceiling on routed experts (cost/torch_grouped_mm.h): where the
// hardware file states the kernel's measured rate, experts run under a PyTorch profile in bf16 go
// no faster than it; Transformer Engine's experts, fp8 and parts without the rate are untouched.
#include "cost/torch_grouped_mm.h"

#include <catch2/catch.hpp>

#include "calib/efficiency_fit.h"
#include "config/resolve.h"
#include "cost/layer_ops.h"
#include "hardware/measured_efficiency.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// A B200-like part (148 SMs, tile GEMM model) that states the rate or not.
Cluster B200(double grouped_mm_tflops) {
  Cluster c = test::Dgx("B200-SXM-180GB", 179, 8000, 2250, 4500, 900, 50);
  c.gpu.sm_count = 148;
  c.gpu.gemm_model = GemmModel::kTile;
  if (grouped_mm_tflops > 0) {
    MeasuredRate m;
    m.field = kTorchGroupedMmField;
    m.rate = grouped_mm_tflops;
    m.source = "test";
    m.software = "test";
    c.gpu.measured.push_back(m);
  }
  return c;
}

ParallelPlan ExpertParallel(Fusion fusion, Precision precision) {
  ParallelPlan p;
  p.dp = 8;
  p.ep = 8;
  p.micro_batch = 2;
  p.global_batch = 16;
  p.precision = precision;
  p.kernels.fusion = fusion;
  return p;
}

const LayerOpRow& GroupedRow(const std::vector<LayerOpsTable>& tables, const std::string& name) {
  for (const LayerOpsTable& t : tables) {
    for (const LayerOpRow& r : t.rows) {
      if (name == r.name) return r;
    }
  }
  FAIL("no row " << name);
  static const LayerOpRow none;
  return none;
}

}  // namespace

TEST_CASE("torch._grouped_mm's measured rate caps routed experts under a PyTorch profile",
          "[cost][torch_grouped_mm]") {
  const ModelSpec mixtral = test::Mixtral8x7B();
  const auto capped =
      ComputeLayerOps(mixtral, B200(862.9), ExpertParallel(Fusion::kCompile, Precision::kBf16));
  const auto free =
      ComputeLayerOps(mixtral, B200(0), ExpertParallel(Fusion::kCompile, Precision::kBf16));
  for (const char* name : {"experts up", "experts down"}) {
    const LayerOpRow& c = GroupedRow(capped, name);
    const LayerOpRow& f = GroupedRow(free, name);
    // The model's own rate on these shapes is above the ceiling, so the ceiling binds exactly.
    REQUIRE(f.flops / f.fwd_s > 862.9e12);
    CHECK(c.fwd_s == Approx(c.flops / 862.9e12));
    CHECK(c.bwd_s == Approx(2 * c.fwd_s));
  }
  // Nothing else in the layer moves.
  CHECK(GroupedRow(capped, "qkv proj").fwd_s == GroupedRow(free, "qkv proj").fwd_s);
  CHECK(GroupedRow(capped, "router").fwd_s == GroupedRow(free, "router").fwd_s);
  CHECK(capped[0].total.fwd_s > free[0].total.fwd_s);
}

TEST_CASE("torch._grouped_mm's rate leaves Transformer Engine's experts and fp8 alone",
          "[cost][torch_grouped_mm]") {
  const ModelSpec mixtral = test::Mixtral8x7B();
  for (const auto& [fusion, precision] :
       {std::pair{Fusion::kTe, Precision::kBf16}, std::pair{Fusion::kCompile, Precision::kFp8}}) {
    const auto with = ComputeLayerOps(mixtral, B200(862.9), ExpertParallel(fusion, precision));
    const auto without = ComputeLayerOps(mixtral, B200(0), ExpertParallel(fusion, precision));
    CHECK(GroupedRow(with, "experts up").fwd_s == GroupedRow(without, "experts up").fwd_s);
    CHECK(with[0].total.fwd_s == without[0].total.fwd_s);
  }
  PlanShape shape;
  shape.kernels.fusion = Fusion::kEager;
  CHECK(TorchGroupedMm(shape));
  shape.kernels.moe_grouped_gemm = false;  // one GEMM per expert: not the grouped kernel
  CHECK_FALSE(TorchGroupedMm(shape));
  CHECK(TorchGroupedMmFlops(B200(0)) == 0);
  CHECK(TorchGroupedMmFlops(B200(862.9)) == Approx(862.9e12));
}

TEST_CASE("dgx-b200.yaml states torch._grouped_mm's rate, it is no efficiency field",
          "[cost][torch_grouped_mm]") {
  const Cluster b200 = LoadCluster("dgx-b200");
  // torchao's best bf16 fwd + bwd timing on B200 (pytorch/ao @ ff163084e): 0.38 of 2,250.
  CHECK(TorchGroupedMmFlops(b200) == Approx(862.9e12));
  CHECK(TorchGroupedMmFlops(LoadCluster("gb200-nvl72")) == 0);  // none published for GB200
  // The fit's prior reads every measured field but this one (it would be no efficiency field).
  const Efficiency prior = PriorEfficiency(b200.gpu, {"nvlink", "scaleout"});
  CHECK(prior.gemm_max == Approx(MeasuredKernelEfficiency(b200.gpu).Find("gemm_max")->value));
  // A part that states only this rate has no kernel ceiling of its own.
  GpuSpec gpu = b200.gpu;
  gpu.measured.erase(gpu.measured.begin(), gpu.measured.end() - 1);
  REQUIRE(gpu.measured.size() == 1);
  REQUIRE(gpu.measured[0].field == kTorchGroupedMmField);
  CHECK_FALSE(MeasuredKernelEfficiency(gpu).own);
}
