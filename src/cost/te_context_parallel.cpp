#include "cost/te_context_parallel.h"

namespace paraplan {

ElementwiseOp TeContextParallelPasses(const CostGraph& d, const PlanShape& p) {
  ElementwiseOp op;
  op.name = "TE context-parallel passes";
  if (p.cp <= 1) return op;
  const double cp = p.cp, heads = d.heads / p.tp, b = kAct;
  const double q = p.tokens * heads * d.qk_head_dim;
  const double o = p.tokens * heads * d.v_head_dim;
  const double kv = p.tokens * AttentionKvHeads(d, p) * (d.qk_head_dim + d.v_head_dim);
  // Forward, the last rank: the first send buffer's cat (r w), a contiguous half of K/V at each
  // of the cp - 1 later steps (r w over half), the zero-filled output (w) and cp merges (r r w).
  op.fwd_bytes = b * (2 * kv + kv * (cp - 1) + o + 3 * o * cp);
  // Its kernels: the cat, cp - 1 copies, the fill, cp merges and cp - 1 log-sum-exp corrections.
  op.fwd_kernels = 1 + (cp - 1) + 1 + cp + (cp - 1);
  // Backward, rank 0: K/V into the send buffer (r w); q, out and dout contiguous over their
  // second half at each of the cp - 1 steps before the diagonal (r w over half); dQ copied over
  // half at step 0, added over half at steps 1 ... cp - 2, copied and added over a half each at
  // the diagonal (2 + 3 (cp - 2) + 5 = 3 cp + 1 B per Q element); dK/dV concatenated at
  // every step (r w), copied at step 0, added at steps 1 ... cp - 2, added and copied over a half
  // each at the diagonal (4 + 6 (cp - 2) + 5 = 6 cp - 3 B per K/V element).
  op.bwd_bytes = b * (2 * kv + (cp - 1) * (q + 2 * o) + q * (1.5 * cp + 0.5) + 2 * kv * cp +
                      kv * (3 * cp - 1.5));
  // Its kernels: the copy, 3 (cp - 1) contiguous halves, cp + 1 dQ and cp + 1 dK/dV updates and
  // cp concatenations.
  op.bwd_kernels = 1 + 3 * (cp - 1) + (cp + 1) + cp + (cp + 1);
  return op;
}

}  // namespace paraplan
