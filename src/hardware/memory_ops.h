// The memory-bound ops the harness's `ops` mode times (calibrate/mode_ops.cu), with the HBM
// bytes per element the cost model counts for each under the `te` fusion profile
// (src/cost/elementwise_cost.cpp, src/cost/plan_evaluation.cpp; docs/framework-fusion.md). A raw
// CSV row of such an op is `memory,<name>,<dtype>,m,n,k,bytes,...` with m × n elements and
// bytes = bytes_per_element × m × n: the bytes the cost model charges, so that bytes / time is
// the bandwidth at which the cost model's count would have to move to match the measurement
// (docs/calibration.md, "Element-wise ops"). Header-only and free of other paraplan headers: the
// CUDA harness includes it too.
#pragma once

#include <array>
#include <string_view>

namespace paraplan {

struct MemoryOpSpec {
  std::string_view name;       // the CSV op
  std::string_view dtype;      // the CSV dtype (the storage type of the big tensors)
  double bytes_per_element;    // HBM bytes the cost model counts per element
  std::string_view m_is;       // what the row's m counts
  std::string_view n_is;       // and its n
  std::string_view costed_as;  // where the cost model counts it
};

inline constexpr std::array<MemoryOpSpec, 12> kMemoryOps = {{
    {"rmsnorm_fwd", "bf16", 4, "tokens", "hidden", "norm fwd: r2 w2"},
    {"rmsnorm_bwd", "bf16", 8, "tokens", "hidden", "norm bwd: 2 x fwd"},
    {"layernorm_fwd", "bf16", 4, "tokens", "hidden", "norm fwd: r2 w2"},
    {"rope_fwd", "bf16", 4, "tokens", "(q + kv heads) x head_dim", "rope fwd: r2 w2"},
    {"swiglu_fwd", "bf16", 6, "tokens", "ffn", "activation fwd (gated): r4 w2"},
    {"swiglu_bwd", "bf16", 12, "tokens", "ffn", "activation bwd: 2 x fwd"},
    {"gelu_fwd", "bf16", 4, "tokens", "ffn", "activation fwd: r2 w2"},
    {"residual_add", "bf16", 6, "tokens", "hidden", "residual add fwd: r2 r2 w2"},
    {"cross_entropy_fwd", "fp32", 12, "tokens", "vocab", "loss fwd: fp32 logits read 3 times"},
    {"cross_entropy_bwd", "fp32", 8, "tokens", "vocab", "loss bwd: r4 w4"},
    {"adam_step", "fp32", 30, "1", "parameters", "optimizer: r16 w14 (fp32 moments)"},
    {"grad_norm", "fp32", 4, "1", "parameters", "not costed (r4 of fp32 gradients)"},
}};

// The op's entry, or nullptr when `name` is not one of kMemoryOps.
inline const MemoryOpSpec* FindMemoryOp(std::string_view name) {
  for (const auto& op : kMemoryOps) {
    if (op.name == name) return &op;
  }
  return nullptr;
}

}  // namespace paraplan
