#include "cost/torchao_float8.h"

#include <algorithm>

#include "cost/moe_ops.h"

namespace paraplan {

namespace {

// One fp8 layout copy (a read and a write of a 1-byte element: float8_ops.py preprocess_addmm).
constexpr double kLayoutCopyBytes = 2.0;
// Layout copies one Linear's backward makes: its weight, its output gradient, its saved input.
constexpr double kLayoutCopiesPerLinear = 3.0;
// A dynamic tensorwise scale: the amax pass reads the bf16 tensor (tensor_to_amax); the cast
// reads it again and writes one byte (hp_tensor_and_scale_to_float8).
constexpr double kAmaxBytes = 2.0;
constexpr double kCastBytes = 3.0;

// A block whose column-parallel Linears share one input (the attention's wq, wk, wv; the MLP's
// w1 and w3, or w1 alone) and whose row-parallel Linear (wo, w2) writes the block's output.
struct Block {
  double in_linears = 0;  // column-parallel Linears reading the block's input
  double col_out = 0;     // their outputs' width on this rank, summed
  double row_in = 0;      // the row-parallel Linear's input width on this rank
  double weights = 0;     // the block's local weight elements
};

}  // namespace

bool TorchaoFloat8(const PlanShape& p) {
  return p.precision == Precision::kFp8 && p.kernels.Pytorch();
}

double TpAllGatherBytesPerElement(const PlanShape& p) {
  return TorchaoFloat8(p) && p.sequence_parallel ? 1.0 : kAct;
}

double FsdpLayerGatherBytesPerElement(const PlanShape& p) {
  return TorchaoFloat8(p) && p.kernels.fsdp_float8_all_gather ? 1.0 : kAct;
}

ElementwiseOp TorchaoFloat8Casts(const CostGraph& d, int kind, const PlanShape& p) {
  const bool compile = p.kernels.fusion == Fusion::kCompile;
  const bool moe = (kind & 1) != 0;
  const double t = p.tokens, tn = p.norm_tokens;
  // Dynamic scaling per cast: an amax pass (r2) and the cast (r2 w1) eager; torch.compile fuses
  // the amax into the tensor's producer, leaving the cast (docs/framework-fusion.md).
  const double per = compile ? 3.0 : 5.0;
  const double per_cast_kernels = compile ? 1.0 : 2.0;
  const double heads = d.heads / p.tp, kv = ProjectedKvHeads(d, p);
  const double up = d.gate > 1 ? 2.0 : 1.0;  // torchtitan's w1 and w3 are separate Linears

  Block blocks[2];
  int n = 0;
  const double qkv_out = (heads + 2 * kv) * d.qk_head_dim, attn_out = heads * d.v_head_dim;
  blocks[n++] = {3, qkv_out, attn_out, d.hidden * (qkv_out + attn_out)};
  double mlp_width = 0;  // the dense MLP's (or shared experts') width on this rank
  if (!moe) {
    mlp_width = d.ffn / p.tp;
  } else if (d.shared_experts > 0) {
    mlp_width = d.shared_experts * d.expert_ffn / p.tp;
  }
  if (mlp_width > 0) {
    blocks[n++] = {up, d.gate * mlp_width, mlp_width, d.hidden * (d.gate + 1) * mlp_width};
  }

  // With the TP plan (PrepareFloat8ModuleInput) or under torch.compile (one graph per block, its
  // common subexpressions eliminated) a block input is cast once; eager without TP, every
  // Float8Linear casts its own copy.
  const bool shared_cast = p.tp > 1 || compile;
  double fwd_elems = 0, bwd_elems = 0, copy_elems = 0, casts_fwd = 0, casts_bwd = 0, linears = 0;
  for (int i = 0; i < n; ++i) {
    const Block& b = blocks[i];
    const double input_casts = shared_cast ? 1.0 : b.in_linears;
    // Forward: the block input on the sequence shard, the row-parallel Linear's local input.
    fwd_elems += input_casts * tn * d.hidden + t * b.row_in;
    casts_fwd += input_casts + 1;
    // Backward: the column-parallel outputs' gradients, the block output's on the shard.
    bwd_elems += t * b.col_out + tn * d.hidden;
    casts_bwd += b.in_linears + 1;
    // Layout copies of the gathered (full-sequence) tensors: each Linear's saved input (one copy
    // of a shared input under compile), each output gradient, each weight.
    const double input_copies = compile ? 1.0 : b.in_linears;
    copy_elems += t * (input_copies * d.hidden + b.row_in) + t * (b.col_out + d.hidden) + b.weights;
    linears += b.in_linears + 1;
  }
  if (moe) {  // routed experts: their inputs and output gradients cast after the permute
    const double routed = RoutedTokens(d, p), fe = d.expert_ffn / p.etp;
    const double expert_gemms = ExpertGemmKernels(d, kind, p);
    fwd_elems += routed * (d.hidden + fe);
    bwd_elems += routed * (d.gate * fe + d.hidden);
    casts_fwd += expert_gemms;
    casts_bwd += expert_gemms;
  }
  // The weights (torchao_float8.h): an amax pass and a cast of the gathered local weight every
  // forward, or a cast of the 1/dp shard before every gather under the float8 all-gather.
  double weights = 0;
  for (int i = 0; i < n; ++i) weights += blocks[i].weights;
  double weight_fwd_bytes = kAmaxBytes * weights + kCastBytes * weights, weight_bwd_bytes = 0;
  double weight_kernels_fwd = 2.0 * linears, weight_kernels_bwd = 0;
  if (p.kernels.fsdp_float8_all_gather) {
    const double shard = weights / std::max(static_cast<double>(p.groups.dp_cp.size), 1.0);
    weight_fwd_bytes = weight_bwd_bytes = kCastBytes * shard;
    weight_kernels_fwd = weight_kernels_bwd = linears;
  }
  const double bwd_bytes = per * bwd_elems + kLayoutCopyBytes * copy_elems + weight_bwd_bytes;
  return {"fp8 cast", per * fwd_elems + weight_fwd_bytes, bwd_bytes,
          per_cast_kernels * casts_fwd + weight_kernels_fwd,
          per_cast_kernels * casts_bwd + kLayoutCopiesPerLinear * linears + weight_kernels_bwd};
}

}  // namespace paraplan
