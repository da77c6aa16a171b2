// PyTorch's SDPA backend as the run states it (plan/kernel_recipe.h, sdpa_cudnn):
// FlashAttention-2's rate by default under eager / compile, the GPU's fused (cuDNN) attention rate
// when stated.
#include <catch2/catch.hpp>

#include "cost/layer_cost.h"
#include "layer_op_row.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// hardware/efficiency.yaml's Hopper figures: FlashAttention-2 0.36 / 0.34 (FA3 paper), cuDNN's
// fused attention 0.695 / 0.455.
Cluster Hopper() {
  Cluster c = test::DgxH100();
  c.efficiency.fa2_attention_fwd = 0.36;
  c.efficiency.fa2_attention_bwd = 0.34;
  c.efficiency.attention_fwd = 0.695;
  c.efficiency.attention_bwd = 0.455;
  c.efficiency.attention_half_seq = 0;
  return c;
}

LayerOpRow CoreAttention(Fusion fusion, bool sdpa_cudnn, bool flash_attn2 = false) {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = Hopper();
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.kernels.fusion = fusion;
  p.kernels.sdpa_cudnn = sdpa_cudnn;
  p.kernels.flash_attn2 = flash_attn2;
  return test::LayerOpNamed(d, p, c, "core attention");
}

}  // namespace

TEST_CASE("SDPA stated on cuDNN runs at the fused-attention rate, FlashAttention-2's otherwise",
          "[cost][attention]") {
  const LayerOpRow fa2 = CoreAttention(Fusion::kCompile, false);
  const LayerOpRow cudnn = CoreAttention(Fusion::kCompile, true);
  REQUIRE(fa2.fwd_s > 0);
  CHECK(fa2.fwd_s / cudnn.fwd_s == Approx(0.695 / 0.36));
  CHECK(fa2.bwd_s / cudnn.bwd_s == Approx(0.455 / 0.34));
  // Eager PyTorch dispatches the same way; TransformerEngine's fused attention is cuDNN already.
  CHECK(CoreAttention(Fusion::kEager, true).fwd_s == Approx(cudnn.fwd_s));
  CHECK(CoreAttention(Fusion::kTe, true).fwd_s == Approx(CoreAttention(Fusion::kTe, false).fwd_s));
  CHECK(CoreAttention(Fusion::kTe, false).fwd_s == Approx(cudnn.fwd_s));
}

TEST_CASE("flash-attn called directly runs at FlashAttention-2's rate under any profile",
          "[cost][attention]") {
  // nanotron's CoreAttention (flash_attn_varlen_func) beside TransformerEngine-like kernels.
  const LayerOpRow te = CoreAttention(Fusion::kTe, false);
  const LayerOpRow fa2 = CoreAttention(Fusion::kTe, false, true);
  CHECK(fa2.fwd_s / te.fwd_s == Approx(0.695 / 0.36));
  CHECK(fa2.fwd_s == Approx(CoreAttention(Fusion::kCompile, false).fwd_s));
}
