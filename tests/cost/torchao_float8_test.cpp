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
constexpr double kF8T = 8192, kF8H = 8192, kF8F = 28672;

}  // namespace

TEST_CASE(
    "torchao float8 under torch.compile: one cast per tensor, three layout copies per "
    "Linear's backward",
    "[cost][torchao]") {
  const ElementwiseOp c = Casts(OneSequence(Fusion::kCompile, 1));
  const double qkv = 80 * 128.0, attn_out = 64 * 128.0;
  const double weights = kF8H * (qkv + attn_out) + kF8H * 3 * kF8F;
  // Forward (r2 w1 each): the attention input once (wq, wk, wv share it), wo's input, the MLP
  // input once (w1, w3), w2's input; and every weight's amax (r2) and cast (r2 w1), which no
  // producer fuses (FSDP2's gathered weight is a graph input).
  CHECK(c.fwd_bytes == Approx(3 * kF8T * (kF8H + attn_out + kF8H + kF8F) + 5 * weights));
  // Backward: every output gradient cast, and the fp8 copies (r1 w1) of the saved inputs, the
  // output gradients and the weights; the weight is not cast again (weight_fp8_t is saved).
  const double grads = kF8T * (qkv + kF8H + 2 * kF8F + kF8H);
  const double inputs = kF8T * (kF8H + attn_out + kF8H + kF8F);
  CHECK(c.bwd_bytes == Approx(3 * grads + 2 * (grads + inputs + weights)));
  CHECK(c.fwd_kernels == 4 + 2 * 7);          // 4 activation casts, an amax and a cast per weight
  CHECK(c.bwd_kernels == Approx(7 + 3 * 7));  // 7 gradient casts, 3 copies per Linear
}

TEST_CASE("torchao float8 eager without TP casts a shared input once per Linear",
          "[cost][torchao]") {
  const ElementwiseOp eager = Casts(OneSequence(Fusion::kEager, 1));
  const double attn_out = 64 * 128.0;
  const double weights = kF8H * (80 * 128.0 + attn_out) + kF8H * 3 * kF8F;
  // Amax pass and cast (r2, r2 w1): wq, wk, wv each cast the attention input, w1 and w3 the
  // MLP's; every weight once.
  CHECK(eager.fwd_bytes ==
        Approx(5 * kF8T * (3 * kF8H + attn_out + 2 * kF8H + kF8F) + 5 * weights));
  CHECK(eager.fwd_bytes > Casts(OneSequence(Fusion::kCompile, 1)).fwd_bytes);
}

TEST_CASE("torchtitan's float8 TP casts the block inputs on the sequence shard",
          "[cost][torchao]") {
  const ElementwiseOp tp8 = Casts(OneSequence(Fusion::kCompile, 8));
  const double attn_out = 8 * 128.0, f = kF8F / 8;
  const double weights = kF8H * ((8 + 2) * 128.0 + attn_out) + kF8H * 3 * f;  // the rank's 1/8
  // PrepareFloat8ModuleInput: the block inputs cast on t/8 rows before the all-gather; the
  // row-parallel inputs are local; the rank's weight shards (amax and cast).
  CHECK(tp8.fwd_bytes ==
        Approx(3 * (kF8T / 8 * kF8H + kF8T * attn_out + kF8T / 8 * kF8H + kF8T * f) + 5 * weights));
  // Eager under the TP plan casts each block input once too.
  const ElementwiseOp eager8 = Casts(OneSequence(Fusion::kEager, 8));
  CHECK(eager8.fwd_bytes ==
        Approx(5 * (kF8T / 8 * kF8H + kF8T * attn_out + kF8T / 8 * kF8H + kF8T * f) + 5 * weights));
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

TEST_CASE("torchao's float8 all-gather casts the weight shard before each gather",
          "[cost][torchao]") {
  ParallelPlan plan = OneSequence(Fusion::kCompile, 1);
  plan.dp = 8;
  plan.zero = 3;
  const ElementwiseOp whole = Casts(plan);
  plan.kernels.fsdp_float8_all_gather = true;
  const ElementwiseOp shard = Casts(plan);
  const double weights = kF8H * (80 * 128.0 + 64 * 128.0) + kF8H * 3 * kF8F;
  // fsdp_pre_all_gather: a cast (r2 w1) of the 1/8 shard per gather, forward and backward,
  // instead of an amax and a cast of the whole weight every forward.
  CHECK(whole.fwd_bytes - shard.fwd_bytes == Approx(5 * weights - 3 * weights / 8));
  CHECK(shard.bwd_bytes - whole.bwd_bytes == Approx(3 * weights / 8));
  CHECK(whole.fwd_kernels - shard.fwd_kernels == 7);
  // FSDP2 gathers the layers' weights in 1 B.
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  CHECK(FsdpLayerGatherBytesPerElement(MakePlanShape(d, plan, test::DgxH100())) == 1.0);
  plan.precision = Precision::kBf16;
  CHECK(FsdpLayerGatherBytesPerElement(MakePlanShape(d, plan, test::DgxH100())) == 2.0);
}
