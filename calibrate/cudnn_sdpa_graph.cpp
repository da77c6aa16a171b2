// The SDPA forward and backward operation graphs (see cudnn_sdpa_graph.h).
#include "cudnn_sdpa_graph.h"

namespace paraplan::calibrate {
namespace {

TensorSpec Io(int64_t uid, cudnnDataType_t type, const Dims4& dims, const Dims4& strides) {
  TensorSpec spec;
  spec.uid = uid;
  spec.type = type;
  spec.dims = dims;
  spec.strides = strides;
  return spec;
}

// [b, h, s, d] packed, described as its transpose [b, h, d, s].
TensorRef Transposed(CudnnGraph& g, int64_t uid, const SdpaShape& s) {
  return g.Tensor(Io(uid, CUDNN_DATA_BFLOAT16, {s.batch, s.heads, s.head_dim, s.seq},
                     {s.heads * s.seq * s.head_dim, s.seq * s.head_dim, 1, s.head_dim}));
}

TensorRef Bshd(CudnnGraph& g, int64_t uid, const SdpaShape& s) {
  const Dims4 dims{s.batch, s.heads, s.seq, s.head_dim};
  return g.Tensor(Io(uid, CUDNN_DATA_BFLOAT16, dims, PackedStrides(dims)));
}

Dims4 ScoreDims(const SdpaShape& s) {
  return {s.batch, s.heads, s.seq, s.seq};
}
Dims4 RowDims(const SdpaShape& s) {
  return {s.batch, s.heads, s.seq, 1};
}
// A [b, h, s_q, s_kv] score tensor seen as [b, h, s_kv, s_q].
Dims4 ScoreTransposeStrides(const SdpaShape& s) {
  return {s.heads * s.seq * s.seq, s.seq * s.seq, 1, s.seq};
}

// scale·(Q·Kᵀ) with the causal mask applied (query row i keeps keys 0..i).
TensorRef MaskedScores(CudnnGraph& g, const SdpaShape& s, TensorRef q, TensorRef kt,
                       TensorRef scale, TensorRef lowest) {
  const TensorRef scores = g.Virtual(ScoreDims(s));
  g.Matmul(q, kt, scores);
  const TensorRef scaled = g.Virtual(ScoreDims(s));
  g.Pointwise(CUDNN_POINTWISE_MUL, scores, scaled, &scale);
  const TensorRef row = g.Virtual(ScoreDims(s), CUDNN_DATA_INT32);
  g.Pointwise(CUDNN_POINTWISE_GEN_INDEX, scaled, row, nullptr, nullptr, CUDNN_DATA_INT32, 2);
  const TensorRef col = g.Virtual(ScoreDims(s), CUDNN_DATA_INT32);
  g.Pointwise(CUDNN_POINTWISE_GEN_INDEX, scaled, col, nullptr, nullptr, CUDNN_DATA_INT32, 3);
  const TensorRef keep = g.Virtual(ScoreDims(s), CUDNN_DATA_BOOLEAN);
  g.Pointwise(CUDNN_POINTWISE_CMP_GE, row, keep, &col, nullptr, CUDNN_DATA_BOOLEAN);
  const TensorRef masked = g.Virtual(ScoreDims(s));
  g.Pointwise(CUDNN_POINTWISE_BINARY_SELECT, scaled, masked, &lowest, &keep);
  return masked;
}

}  // namespace

std::unique_ptr<CudnnGraph> BuildSdpaForward(cudnnHandle_t handle, const SdpaShape& s) {
  auto g = std::make_unique<CudnnGraph>(handle);
  const TensorRef q = Bshd(*g, kSdpaQ, s);
  const TensorRef kt = Transposed(*g, kSdpaK, s);
  const TensorRef v = Bshd(*g, kSdpaV, s);
  const TensorRef o = Bshd(*g, kSdpaO, s);
  const TensorRef stats =
      g->Tensor(Io(kSdpaStats, CUDNN_DATA_FLOAT, RowDims(s), PackedStrides(RowDims(s))));
  const TensorRef scale = g->Scalar(kSdpaScale);
  const TensorRef lowest = g->Scalar(kSdpaLowest);

  const TensorRef masked = MaskedScores(*g, s, q, kt, scale, lowest);
  const TensorRef row_max = g->Virtual(RowDims(s));
  g->Reduce(CUDNN_REDUCE_TENSOR_MAX, masked, row_max);
  const TensorRef shifted = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_SUB, masked, shifted, &row_max);
  const TensorRef exps = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_EXP, shifted, exps);
  const TensorRef row_sum = g->Virtual(RowDims(s));
  g->Reduce(CUDNN_REDUCE_TENSOR_ADD, exps, row_sum);
  const TensorRef log_sum = g->Virtual(RowDims(s));
  g->Pointwise(CUDNN_POINTWISE_LOG, row_sum, log_sum);
  g->Pointwise(CUDNN_POINTWISE_ADD, row_max, stats, &log_sum);
  // The probabilities enter the second matmul in the I/O type (bf16), as the engine requires.
  const TensorRef probs = g->Virtual(ScoreDims(s), CUDNN_DATA_BFLOAT16);
  g->Pointwise(CUDNN_POINTWISE_DIV, exps, probs, &row_sum);
  g->Matmul(probs, v, o);
  g->Build("SDPA forward (causal, bf16)");
  return g;
}

std::unique_ptr<CudnnGraph> BuildSdpaBackward(cudnnHandle_t handle, const SdpaShape& s) {
  auto g = std::make_unique<CudnnGraph>(handle);
  const Dims4 io_dims{s.batch, s.heads, s.seq, s.head_dim};
  const TensorRef q = Bshd(*g, kSdpaQ, s);
  const TensorRef kt = Transposed(*g, kSdpaK, s);
  const TensorRef vt = Transposed(*g, kSdpaV, s);
  const TensorRef o = Bshd(*g, kSdpaO, s);
  const TensorRef d_o = Bshd(*g, kSdpaDO, s);
  const TensorRef stats =
      g->Tensor(Io(kSdpaStats, CUDNN_DATA_FLOAT, RowDims(s), PackedStrides(RowDims(s))));
  const TensorRef dq = Bshd(*g, kSdpaDQ, s);
  const TensorRef dk = Bshd(*g, kSdpaDK, s);
  const TensorRef dv = Bshd(*g, kSdpaDV, s);
  TensorSpec accum_spec = Io(kSdpaDQAccum, CUDNN_DATA_FLOAT, io_dims, PackedStrides(io_dims));
  accum_spec.reorder_f16x16 = true;
  const TensorRef dq_accum = g->Tensor(accum_spec);
  const TensorRef scale = g->Scalar(kSdpaScale);
  const TensorRef lowest = g->Scalar(kSdpaLowest);
  const TensorRef one = g->Scalar(kSdpaOne);

  // D = rowsum(dO ∘ O) · 1 (the 1 stands where dropout would put its scale).
  const TensorRef d_o_o = g->Virtual(io_dims);
  g->Pointwise(CUDNN_POINTWISE_MUL, d_o, d_o_o, &o);
  const TensorRef d_sum = g->Virtual(RowDims(s));
  g->Reduce(CUDNN_REDUCE_TENSOR_ADD, d_o_o, d_sum);
  const TensorRef d_row = g->Virtual(RowDims(s));
  g->Pointwise(CUDNN_POINTWISE_MUL, d_sum, d_row, &one);

  // P = exp(masked scores − Stats); dV = Pᵀ·dO.
  const TensorRef masked = MaskedScores(*g, s, q, kt, scale, lowest);
  const TensorRef shifted = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_SUB, masked, shifted, &stats);
  const TensorRef probs = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_EXP, shifted, probs);
  const TensorRef probs_t = g->Virtual(ScoreDims(s), ScoreTransposeStrides(s), CUDNN_DATA_BFLOAT16);
  g->Reshape(probs, probs_t);
  g->Matmul(probs_t, d_o, dv);

  // dS = scale · P ∘ (dO·Vᵀ · 1 − D); dK = dSᵀ·Q.
  const TensorRef d_p = g->Virtual(ScoreDims(s));
  g->Matmul(d_o, vt, d_p);
  const TensorRef d_p1 = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_MUL, d_p, d_p1, &one);
  const TensorRef d_p2 = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_SUB, d_p1, d_p2, &d_row);
  const TensorRef d_s = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_MUL, d_p2, d_s, &probs);
  const TensorRef d_s_scaled = g->Virtual(ScoreDims(s));
  g->Pointwise(CUDNN_POINTWISE_MUL, d_s, d_s_scaled, &scale);
  const TensorRef d_s_t = g->Virtual(ScoreDims(s), ScoreTransposeStrides(s), CUDNN_DATA_BFLOAT16);
  g->Reshape(d_s_scaled, d_s_t);
  g->Matmul(d_s_t, q, dk);

  // dQ = dS·K through the fp32 accumulator.
  const TensorRef k = g->Virtual(io_dims, PackedStrides(io_dims), CUDNN_DATA_BFLOAT16);
  g->Reshape(kt, k);
  g->Matmul(d_s_scaled, k, dq_accum);
  g->Pointwise(CUDNN_POINTWISE_IDENTITY, dq_accum, dq);
  g->Build("SDPA backward (causal, bf16)");
  return g;
}

}  // namespace paraplan::calibrate
