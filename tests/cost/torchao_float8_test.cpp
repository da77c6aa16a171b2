// torchao's float8 Linear as torchtitan runs it: the casts, the backward's fp8 layout copies and
// the float8 TP plan's shard-side casts and fp8 all-gathers, against hand arithmetic from
// cost/torchao_float8.h (pytorch/ao eab345c).
#include "cost/torchao_float8.h"

#include <catch2/catch.hpp>

#include "cost/layer_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan OneSequence(Fusion fusion, int tp) {
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.precision = Precision::kFp8;
  p.kernels.fusion = fusion;
  p.tp = tp;
  p.dp = 1;
  p.sequence_parallel = tp > 1;
  p.overlap_tp_comm = false;
  return p;
}

ElementwiseOp Casts(const ParallelPlan& plan) {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  return TorchaoFloat8Casts(d, 0, MakePlanShape(d, plan, test::DgxH100()));
}

// Llama-3 70B, one sequence of 8192 tokens: h 8192, 64 q / 8 kv heads x 128, SwiGLU 28672.
constexpr double kT = 8192, kH = 8192, kF = 28672;

}  // namespace

TEST_CASE(
    "torchao float8 under torch.compile: one cast per tensor, three layout copies per "
    "Linear's backward",
    "[cost][torchao]") {
  const ElementwiseOp c = Casts(OneSequence(Fusion::kCompile, 1));
  const double qkv = 80 * 128.0, attn_out = 64 * 128.0;
  // Forward (r2 w1 each): the attention input once (wq, wk, wv share it), wo's input, the MLP
  // input once (w1, w3), w2's input.
  CHECK(c.fwd_bytes == Approx(3 * kT * (kH + attn_out + kH + kF)));
  // Backward: every output gradient cast, and the fp8 copies (r1 w1) of the saved inputs, the
  // output gradients and the weights.
  const double grads = kT * (qkv + kH + 2 * kF + kH);
  const double inputs = kT * (kH + attn_out + kH + kF);
  const double weights = kH * (qkv + attn_out) + kH * 3 * kF;
  CHECK(c.bwd_bytes == Approx(3 * grads + 2 * (grads + inputs + weights)));
  CHECK(c.fwd_kernels == 4);
  CHECK(c.bwd_kernels == Approx(7 + 3 * 7));  // 7 gradient casts, 3 copies per Linear
}

TEST_CASE("torchao float8 eager without TP casts a shared input once per Linear",
          "[cost][torchao]") {
  const ElementwiseOp eager = Casts(OneSequence(Fusion::kEager, 1));
  const double attn_out = 64 * 128.0;
  // Amax pass and cast (r2, r2 w1): wq, wk, wv each cast the attention input, w1 and w3 the
  // MLP's.
  CHECK(eager.fwd_bytes == Approx(5 * kT * (3 * kH + attn_out + 2 * kH + kF)));
  CHECK(eager.fwd_bytes > Casts(OneSequence(Fusion::kCompile, 1)).fwd_bytes);
}

TEST_CASE("torchtitan's float8 TP casts the block inputs on the sequence shard",
          "[cost][torchao]") {
  const ElementwiseOp tp8 = Casts(OneSequence(Fusion::kCompile, 8));
  const double attn_out = 8 * 128.0, f = kF / 8;
  // PrepareFloat8ModuleInput: the block inputs cast on t/8 rows before the all-gather; the
  // row-parallel inputs are local.
  CHECK(tp8.fwd_bytes == Approx(3 * (kT / 8 * kH + kT * attn_out + kT / 8 * kH + kT * f)));
  // Eager under the TP plan casts each block input once too.
  const ElementwiseOp eager8 = Casts(OneSequence(Fusion::kEager, 8));
  CHECK(eager8.fwd_bytes == Approx(5 * (kT / 8 * kH + kT * attn_out + kT / 8 * kH + kT * f)));
}

TEST_CASE("torchao's float8 TP all-gathers fp8, Transformer Engine's and bf16 plans bf16",
          "[cost][torchao]") {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  auto shape = [&](Fusion fusion, Precision precision) {
    ParallelPlan p = OneSequence(fusion, 8);
    p.precision = precision;
    return MakePlanShape(d, p, c);
  };
  CHECK(TpAllGatherBytesPerElement(shape(Fusion::kCompile, Precision::kFp8)) == 1.0);
  CHECK(TpAllGatherBytesPerElement(shape(Fusion::kEager, Precision::kFp8)) == 1.0);
  CHECK(TpAllGatherBytesPerElement(shape(Fusion::kCompile, Precision::kBf16)) == 2.0);
  CHECK(TpAllGatherBytesPerElement(shape(Fusion::kTe, Precision::kFp8)) == 2.0);
  // The layer's TP time: the all-gathers shrink, the reduce-scatters do not.
  const LayerCost fp8 = ComputeLayerCost(d, 0, shape(Fusion::kCompile, Precision::kFp8), c);
  const LayerCost bf16 = ComputeLayerCost(d, 0, shape(Fusion::kCompile, Precision::kBf16), c);
  CHECK(fp8.tp_comm_fwd_s < bf16.tp_comm_fwd_s);
  CHECK(fp8.tp_comm_fwd_s > bf16.tp_comm_fwd_s / 2);
}
