// The core attention under a context-parallel ring whose steps run unmasked blocks.
// Load-balanced causal rings (Transformer Engine's AttnFuncWithCP at v1.4-v2.x, cp_comm_type p2p)
// give each of a rank's cp steps an equal share of its attention work: the diagonal step runs
// the causal kernel over the local 2 chunks, every other step a `no_mask` block (all of Q
// against the first half of the passed K/V, or the second half of Q against all of it). The
// unmasked blocks carry (cp - 1) / cp of the work at the kernel's unmasked rate, which at short
// lengths is well above the causal one (the causal kernel's diagonal tiles and its uneven work
// per query tile). Measured: cuDNN's SDPA training benchmark (github.com/NVIDIA/cudnn-frontend
// @ df73764, benchmark/sdpa_benchmark_training/results/h200_919_only_cudnn/
// llama3.1_20260227_034703.csv; cuDNN 9.19.1, H200, batch 1, 64 query / 8 KV heads of 128,
// bf16), `no_mask` against `top_left` TFLOP/s of real work at 2K-32K tokens, forward and
// backward. The same benchmark on GB200 (gb200_919_only_cudnn) gives ratios within 0.06 of
// these at 8K-32K. An unmasked block of q x kv scores is read at the square of the same score
// count, side sqrt(q kv) (local / sqrt 2 for the half blocks).
#pragma once

#include "cost/compute_cost.h"

namespace paraplan {

// cuDNN's unmasked / causal rate at a square of `tokens` (log-linear between the measured
// lengths 2K-32K, clamped outside them).
double UnmaskedOverCausalRate(double tokens, bool backward);

// Seconds of the core attention of `flops` (causal work) under a load-balanced ring of `cp`
// ranks running cuDNN's fused attention: the diagonal 1 / cp at the causal rate over the local
// length, the rest as unmasked half blocks (above). cp <= 1, `fa2` (PyTorch's SDPA) or a GPU
// whose fused kernel is FlashAttention-2 (efficiency fa2_attention_fwd 0: Ampere, where
// Transformer Engine selects flash-attn), whose unmasked ratio is not measured here:
// AttentionSeconds unchanged.
double RingAttentionSeconds(const Cluster& cluster, double flops, bool backward,
                            const AttentionShape& shape, bool fa2, double cp);

}  // namespace paraplan
