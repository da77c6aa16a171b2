#include "cost/attention_mask.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace paraplan {

namespace {

struct MaskPoint {
  double tokens, fwd_ratio, bwd_ratio;
};

// cuDNN 9.19.1 on H200 (attention_mask.h): no_mask / top_left forward and backward TFLOP/s.
constexpr std::array<MaskPoint, 5> kCudnnH200 = {{
    {2048, 633.0 / 484.0, 504.0 / 370.0},
    {4096, 671.0 / 591.0, 560.0 / 474.0},
    {8192, 691.0 / 644.0, 594.0 / 541.0},
    {16384, 702.0 / 673.0, 612.0 / 579.0},
    {32768, 693.0 / 688.0, 572.0 / 581.0},
}};

}  // namespace

double UnmaskedOverCausalRate(double tokens, bool backward) {
  const auto ratio = [backward](const MaskPoint& m) {
    return backward ? m.bwd_ratio : m.fwd_ratio;
  };
  if (!(tokens > kCudnnH200.front().tokens)) return ratio(kCudnnH200.front());
  for (size_t i = 1; i < kCudnnH200.size(); ++i) {
    const MaskPoint& a = kCudnnH200[i - 1];
    const MaskPoint& b = kCudnnH200[i];
    if (tokens <= b.tokens) {
      const double f = std::log(tokens / a.tokens) / std::log(b.tokens / a.tokens);
      return ratio(a) + f * (ratio(b) - ratio(a));
    }
  }
  return ratio(kCudnnH200.back());
}

double RingAttentionSeconds(const Cluster& cluster, double flops, bool backward,
                            const AttentionShape& shape, bool fa2, double cp) {
  // A GPU whose fused attention is FlashAttention-2 (fa2_attention_fwd 0: Ampere, where
  // Transformer Engine picks flash-attn) has no cuDNN ratio either.
  const bool cudnn = !fa2 && cluster.efficiency.fa2_attention_fwd > 0;
  if (cp <= 1 || !cudnn || flops <= 0) {
    return AttentionSeconds(cluster, flops, backward, shape, fa2);
  }
  const double diagonal = AttentionSeconds(cluster, flops / cp, backward, shape, fa2);
  AttentionShape block = shape;
  block.seq = std::max(shape.seq / std::sqrt(2.0), 1.0);
  const double unmasked = flops * (cp - 1) / cp;
  return diagonal + AttentionSeconds(cluster, unmasked, backward, block, fa2) /
                        UnmaskedOverCausalRate(block.seq, backward);
}

}  // namespace paraplan
