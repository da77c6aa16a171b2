// The core attention as flash-attn v1.0.4's Triton kernel runs it (flash_attn/flash_attn_triton.py
// at Dao-AILab/flash-attention ad113948, `flash_attn_func`; Megatron-DeepSpeed's
// --use-flash-attn-triton, megatron/model/transformer.py FlashSelfAttentionTriton at cc3a94c6).
// Two facts price it against the FlashAttention-2 rate the GPU's family carries:
//  - Head dimension padded: the kernel tiles the head dimension at
//    BLOCK_HEADDIM = max(next_power_of_2(d), 16) (flash_attn_triton.py, _flash_attn_forward and
//    _flash_attn_backward) and masks the loads past d, so every product runs BLOCK_HEADDIM wide:
//    d = 96 does the work of 128.
//  - A FlashAttention-1-class rate: the package's own docstring puts the Triton kernel's
//    forward + backward "slightly slower than CUDA", its FlashAttention-1 kernel, and the
//    FlashAttention-2 release's A100 80GB SXM4 chart (assets/flash2_a100_fwd_bwd_benchmark.png
//    at 4f285b35, 2023-07-17; causal, head dim 128, 16K tokens a batch) measures that CUDA kernel
//    against FlashAttention-2, forward + backward: 55 / 99 TFLOP/s at 512 tokens, 62 / 133 at
//    1K, 69 / 155 at 2K, 76 / 173 at 4K, 80 / 182 at 8K, 83 / 189 at 16K. The chart's
//    "FlashAttention Triton" (triton.ops.flash_attention, the kernel flash_attn_triton.py started
//    from) is within 10 % of those (50 ... 80).
#pragma once

namespace paraplan {

// FlashAttention-1 over FlashAttention-2, forward + backward, at a causal sequence of `tokens`
// (log-linear between the chart's lengths 512-16K, clamped outside them).
double FlashAttn1OverFa2Rate(double tokens);

// The head dimension the Triton kernel computes over: max(next power of 2 of `head_dim`, 16).
double TritonBlockHeadDim(double head_dim);

// The Triton kernel's seconds over FlashAttention-2's for the same attention (sequence `tokens`
// per rank, `head_dim`): BLOCK_HEADDIM / d over the rate ratio.
// The chart measures forward and backward together; both passes take the same ratio.
double FlashAttnTritonFactor(double tokens, double head_dim);

}  // namespace paraplan
