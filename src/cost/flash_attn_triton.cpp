#include "cost/flash_attn_triton.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace paraplan {

namespace {

struct RatePoint {
  double tokens, fa1_tflops, fa2_tflops;
};

// flash-attention 4f285b35 assets/flash2_a100_fwd_bwd_benchmark.png, panel (d): with causal
// mask, head dimension 128, A100 80GB SXM4, forward + backward TFLOP/s (flash_attn_triton.h).
constexpr std::array<RatePoint, 6> kA100CausalD128 = {{
    {512, 55, 99},
    {1024, 62, 133},
    {2048, 69, 155},
    {4096, 76, 173},
    {8192, 80, 182},
    {16384, 83, 189},
}};

double Ratio(const RatePoint& p) {
  return p.fa1_tflops / p.fa2_tflops;
}

}  // namespace

double FlashAttn1OverFa2Rate(double tokens) {
  if (!(tokens > kA100CausalD128.front().tokens)) return Ratio(kA100CausalD128.front());
  for (size_t i = 1; i < kA100CausalD128.size(); ++i) {
    const RatePoint& a = kA100CausalD128[i - 1];
    const RatePoint& b = kA100CausalD128[i];
    if (tokens <= b.tokens) {
      const double f = std::log(tokens / a.tokens) / std::log(b.tokens / a.tokens);
      return Ratio(a) + f * (Ratio(b) - Ratio(a));
    }
  }
  return Ratio(kA100CausalD128.back());
}

double TritonBlockHeadDim(double head_dim) {
  double block = 16;
  while (block < head_dim) block *= 2;
  return block;
}

double FlashAttnTritonFactor(double tokens, double head_dim) {
  const double d = std::max(head_dim, 1.0);
  return (TritonBlockHeadDim(d) / d) / FlashAttn1OverFa2Rate(tokens);
}

}  // namespace paraplan
