// flash-attn v1.0.4's Triton kernel (plan/kernel_recipe.h, flash_attn_triton): FlashAttention-2's
// rate times the head dimension padded to a power of two over FlashAttention-1's measured rate
// against FlashAttention-2 (cost/flash_attn_triton.h).
#include "cost/flash_attn_triton.h"

#include <catch2/catch.hpp>

#include "cost/layer_cost.h"
#include "layer_op_row.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// Megatron-DeepSpeed's long-sequence GPT-30B (pretrain_gpt_30B_seq_parallel.sh at cc3a94c6):
// 64 heads of 96.
ModelSpec Gpt30B(double seq) {
  ModelSpec m = test::Gpt3_175B();
  m.name = "gpt-30b";
  m.layers = 64;
  m.hidden = 6144;
  m.heads = m.kv_heads = 64;
  m.head_dim = 96;
  m.ffn_hidden = 4 * 6144;
  m.seq_len = static_cast<int64_t>(seq);
  return m;
}

// An A100 whose fused attention is FlashAttention-2 (efficiency fa2_attention_fwd 0).
Cluster A100() {
  Cluster c = test::DgxA100();
  c.efficiency.attention_fwd = 0.65;
  c.efficiency.attention_bwd = 0.48;
  c.efficiency.fa2_attention_fwd = 0;
  c.efficiency.fa2_attention_bwd = 0;
  return c;
}

LayerOpRow TritonCoreAttention(const ModelSpec& m, Fusion fusion, bool triton) {
  const CostGraph d = BuildCostGraph(m);
  const Cluster c = A100();
  ParallelPlan p;
  p.tp = 32;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.sequence_parallel = true;
  p.kernels.fusion = fusion;
  p.kernels.flash_attn_triton = triton;
  return test::LayerOpNamed(d, p, c, "core attention");
}

}  // namespace

TEST_CASE("the Triton kernel tiles the head dimension at the next power of two",
          "[cost][attention]") {
  CHECK(TritonBlockHeadDim(96) == 128);
  CHECK(TritonBlockHeadDim(128) == 128);
  CHECK(TritonBlockHeadDim(64) == 64);
  CHECK(TritonBlockHeadDim(80) == 128);
  CHECK(TritonBlockHeadDim(8) == 16);
}

TEST_CASE("FlashAttention-1 over FlashAttention-2 follows the A100 chart, clamped outside it",
          "[cost][attention]") {
  CHECK(FlashAttn1OverFa2Rate(2048) == Approx(69.0 / 155.0));
  CHECK(FlashAttn1OverFa2Rate(16384) == Approx(83.0 / 189.0));
  CHECK(FlashAttn1OverFa2Rate(262144) == Approx(83.0 / 189.0));
  CHECK(FlashAttn1OverFa2Rate(128) == Approx(55.0 / 99.0));
  // Between two measured lengths, between their ratios.
  const double mid = FlashAttn1OverFa2Rate(3000);
  CHECK(mid < 69.0 / 155.0);
  CHECK(mid > 76.0 / 173.0);
  // Padding and rate together: 96 -> 128 over 0.439 at 16K and beyond.
  CHECK(FlashAttnTritonFactor(65536, 96) == Approx((128.0 / 96.0) * 189.0 / 83.0));
  CHECK(FlashAttnTritonFactor(65536, 128) == Approx(189.0 / 83.0));
}

TEST_CASE("flash-attn's Triton kernel costs its factor over FlashAttention-2, under any fusion",
          "[cost][attention]") {
  const ModelSpec m = Gpt30B(262144);
  const LayerOpRow fa2 = TritonCoreAttention(m, Fusion::kTe, false);
  const LayerOpRow triton = TritonCoreAttention(m, Fusion::kTe, true);
  REQUIRE(fa2.fwd_s > 0);
  const double factor = (128.0 / 96.0) * 189.0 / 83.0;
  CHECK(triton.fwd_s / fa2.fwd_s == Approx(factor));
  CHECK(triton.bwd_s / fa2.bwd_s == Approx(factor));
  // Apex's unfused attention is replaced by the stated kernel (no s x s scores).
  const LayerOpRow apex = TritonCoreAttention(m, Fusion::kApex, true);
  CHECK(apex.fwd_s == Approx(triton.fwd_s));
  // At 2K tokens the ratio is the chart's 2K point.
  const ModelSpec s = Gpt30B(2048);
  CHECK(TritonCoreAttention(s, Fusion::kTe, true).fwd_s /
            TritonCoreAttention(s, Fusion::kTe, false).fwd_s ==
        Approx((128.0 / 96.0) * 155.0 / 69.0));
}
