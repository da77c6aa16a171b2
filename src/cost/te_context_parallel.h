// Transformer Engine's context-parallel attention (cp_comm_type p2p, causal, load-balanced: each
// rank holds sequence chunks r and 2 cp - 1 - r) runs, besides one fused-attention call per ring
// step, element-wise passes of its own on the local output O (tokens x local heads x v_head_dim
// elements), the query Q (x qk_head_dim) and K/V as the kernel reads them (AttentionKvHeads),
// each a separate kernel in q's dtype (bf16 here, 2 B). Read in NVIDIA/TransformerEngine at v1.4
// (transformer_engine/pytorch/attention.py, AttnFuncWithCP, NeMo 24.03's TE) and unchanged in
// structure at v2.2 (AttnFuncWithCPAndKVP2P, qkv_format bshd/sbhd):
// - forward: K and V concatenated into the first send buffer (torch.cat: r2 w2 per K/V element);
//   on a rank whose step reads the first half of the received K/V (step i <= rank) that half is
//   made contiguous (r2 w2 over half); the output is zero-filled (w2) and, after the ring, each
//   step's partial output is merged into it by flash_attn_fwd_out_correction (jit-fused
//   out += out_step * exp(lse_step - lse): r2 r2 w2 per element of the step's rows);
// - backward: K/V copied into the first send buffer (r2 w2); on a rank whose step reads the
//   second half of Q (step i < cp - rank - 1) q, out and dout are made contiguous over that half
//   (r2 w2 each); the step's dQ is copied or added into dq (half or all of it: r2 w2 / r2 r2 w2),
//   the fused kernel's dK and dV concatenated (torch.cat, r2 w2 over the step's K/V) and copied or
//   added into the dK/dV ring buffer (r2 w2 / r2 r2 w2).
// The ranks do equal attention work but not equal passes: the last rank runs every step after
// the first on all of Q (the most forward traffic), rank 0 every step before the diagonal on half
// of Q and all of K/V (the most backward traffic); each pass takes its busiest rank, the ring's
// sends making the others wait. Left out: the log-sum-exp corrections (8-byte values per token
// and head, a head dim's fraction of the output's traffic) and the fp8 attention paths.
#pragma once

#include "cost/cost_graph.h"
#include "cost/elementwise_cost.h"
#include "cost/plan_shape.h"

namespace paraplan {

// The per-step passes above for one layer's local micro-batch (p.tokens on this rank) at p.cp;
// cp 1 has none (an empty op).
ElementwiseOp TeContextParallelPasses(const CostGraph& d, const PlanShape& p);

}  // namespace paraplan
