// torchtitan's per-op selective activation checkpointing (recompute = op): what one layer keeps
// for backward and which forward work it redoes. torchtitan wraps each transformer block in
// torch.utils.checkpoint with a policy that must-saves the outputs of aten.mm, the flash/efficient
// SDPA kernels and reduce_scatter, except every second mm of the block ("save every other mm");
// everything else (norms, RoPE, the activation function, the unsaved mms) is recomputed in the
// backward (torchtitan/distributed/activation_checkpoint.py, _apply_op_sac, Dec 2024).
#pragma once

#include "cost/cost_graph.h"
#include "cost/plan_shape.h"
#include "hardware/cluster.h"

namespace paraplan {

struct OpCheckpointCost {
  double saved_bytes = 0;       // block input + saved mm / SDPA / reduce-scatter outputs
  double recompute_gemm_s = 0;  // forward seconds of the mms that are not saved
};

// One layer of kind `kind`, one micro-batch, one GPU. The mms are taken in torchtitan's Llama
// order (wq, wk, wv, wo, w1, w3, w2; MLA: q down/up, kv down/up, wo; MoE: router, then the routed
// and shared experts as if plain mms), and the odd-numbered ones (1st, 3rd, ...) are saved.
OpCheckpointCost ComputeOpCheckpoint(const CostGraph& dims, int kind, const PlanShape& shape,
                                     const Cluster& cluster);

// FLOPs per token of the mms one layer of kind `kind` recomputes under per-op SAC (no
// parallelism): what HFU counts on top of the model FLOPs.
double OpRecomputeFlopsPerToken(const CostGraph& dims, int kind);

}  // namespace paraplan
