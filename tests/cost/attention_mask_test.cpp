// cuDNN's unmasked blocks under a load-balanced ring (cost/attention_mask.h): the measured ratios
// and where the layer applies them.
#include "cost/attention_mask.h"

#include <catch2/catch.hpp>
#include <cmath>

#include "test_specs.h"

using namespace paraplan;

namespace {

Cluster HopperWithCudnn() {
  Cluster c = test::DgxH100();
  c.efficiency.fa2_attention_fwd = 0.36;  // hardware/efficiency.yaml's Hopper: cuDNN is TE's kernel
  c.efficiency.fa2_attention_bwd = 0.34;
  return c;
}

}  // namespace

TEST_CASE("cuDNN's unmasked rate over its causal one, from its H200 benchmark", "[cost]") {
  // The measured points: no_mask / top_left at 2K, 8K and 32K tokens.
  CHECK(UnmaskedOverCausalRate(2048, false) == Approx(633.0 / 484.0));
  CHECK(UnmaskedOverCausalRate(8192, true) == Approx(594.0 / 541.0));
  CHECK(UnmaskedOverCausalRate(32768, false) == Approx(693.0 / 688.0));
  // Log-linear between them, clamped outside.
  const double mid = UnmaskedOverCausalRate(std::sqrt(4096.0 * 8192.0), false);
  CHECK(mid == Approx((671.0 / 591.0 + 691.0 / 644.0) / 2));
  CHECK(UnmaskedOverCausalRate(512, false) == Approx(633.0 / 484.0));
  CHECK(UnmaskedOverCausalRate(1 << 20, true) == Approx(572.0 / 581.0));
  // The gap closes with length: short blocks gain most.
  CHECK(UnmaskedOverCausalRate(4096, false) > UnmaskedOverCausalRate(16384, false));
}

TEST_CASE("a load-balanced ring runs all but the diagonal unmasked", "[cost]") {
  const Cluster c = HopperWithCudnn();
  const AttentionShape local{4096, 32, 128};  // CP 2 of an 8K sequence
  const double flops = 1e12;
  const double causal = AttentionSeconds(c, flops, false, local, false);
  // No ring: unchanged.
  CHECK(RingAttentionSeconds(c, flops, false, local, false, 1) == Approx(causal));
  // CP 2: half the work causal over 4K, half unmasked at a square of 4096 / sqrt 2.
  AttentionShape block = local;
  block.seq = 4096 / std::sqrt(2.0);
  const double expect = AttentionSeconds(c, flops / 2, false, local, false) +
                        AttentionSeconds(c, flops / 2, false, block, false) /
                            UnmaskedOverCausalRate(block.seq, false);
  const double ring = RingAttentionSeconds(c, flops, false, local, false, 2);
  CHECK(ring == Approx(expect));
  CHECK(ring < causal);  // short blocks: unmasked is faster
  // Long local lengths: the ratio is near 1, the ring's time near the causal estimate.
  const AttentionShape long_local{32768, 4, 128};
  const double long_causal = AttentionSeconds(c, flops, true, long_local, false);
  CHECK(RingAttentionSeconds(c, flops, true, long_local, false, 32) ==
        Approx(long_causal).epsilon(0.03));
  // PyTorch's SDPA (FlashAttention-2) and a GPU whose kernel is FlashAttention-2: unchanged.
  CHECK(RingAttentionSeconds(c, flops, false, local, true, 2) ==
        Approx(AttentionSeconds(c, flops, false, local, true)));
  Cluster a100 = test::DgxA100();
  a100.efficiency.fa2_attention_fwd = 0;
  CHECK(RingAttentionSeconds(a100, flops, false, local, false, 2) ==
        Approx(AttentionSeconds(a100, flops, false, local, false)));
}
