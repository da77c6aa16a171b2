// The element-wise ops and launches of a layer under each fusion profile, against hand
// arithmetic from docs/framework-fusion.md's table, and the per-op table summing to the layer.
#include "cost/elementwise_cost.h"

#include <catch2/catch.hpp>
#include <string>

#include "cost/layer_ops.h"
#include "evaluate/step_model.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan OneGpuFused(Fusion fusion, Precision precision = Precision::kBf16) {
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.precision = precision;
  p.kernels.fusion = fusion;
  return p;
}

// torch.compile'd layers at TP 8 with sequence parallelism, the TP collectives not overlapped.
ParallelPlan CompiledSpTp8() {
  ParallelPlan p = OneGpuFused(Fusion::kCompile);
  p.tp = 8;
  p.dp = 1;
  p.sequence_parallel = true;
  p.overlap_tp_comm = false;
  return p;
}

const ElementwiseOp* FindEw(const LayerElementwise& ew, const std::string& name) {
  for (size_t i = 0; i < ew.count; ++i) {
    if (ew.ops[i].name == name) return &ew.ops[i];
  }
  return nullptr;
}

LayerElementwise EwOps(const ModelSpec& m, const ParallelPlan& p) {
  const CostGraph d = BuildCostGraph(m);
  return ComputeLayerElementwise(d, 0, MakePlanShape(d, p, test::DgxH100()));
}

}  // namespace

TEST_CASE("Transformer Engine's fused ops move the bytes of the table", "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // h 8192, 64 q / 8 kv heads × 128, SwiGLU 28672
  const LayerElementwise ew = EwOps(m, OneGpuFused(Fusion::kTe));
  const double t = 8192;  // one sequence of 8192 tokens
  REQUIRE(FindEw(ew, "norm"));
  CHECK(FindEw(ew, "norm")->fwd_bytes == Approx(2 * t * 8192 * 4));
  CHECK(FindEw(ew, "norm")->fwd_kernels == 2);
  CHECK(FindEw(ew, "residual add")->fwd_bytes == Approx(2 * t * 8192 * 6));
  CHECK(FindEw(ew, "rope")->fwd_bytes == Approx(t * (64 + 8) * 128 * 4));
  CHECK(FindEw(ew, "activation")->fwd_bytes == Approx(t * 28672 * 6));
  CHECK(FindEw(ew, "softmax+dropout") == nullptr);  // FlashAttention keeps no scores
  CHECK(FindEw(ew, "fp8 cast") == nullptr);
  CHECK(ew.BwdBytes() == Approx(2 * ew.FwdBytes()));
  CHECK(ew.BwdKernels() == Approx(2 * ew.FwdKernels()));
}

TEST_CASE("eager PyTorch moves more bytes in more kernels than torch.compile", "[cost]") {
  const ModelSpec m = test::Llama3_70B();
  const LayerElementwise eager = EwOps(m, OneGpuFused(Fusion::kEager));
  const LayerElementwise compiled = EwOps(m, OneGpuFused(Fusion::kCompile));
  const LayerElementwise te = EwOps(m, OneGpuFused(Fusion::kTe));
  const double t = 8192;
  // torchtitan's RMSNorm: seven kernels, 36 bytes per element.
  CHECK(FindEw(eager, "norm")->fwd_bytes == Approx(2 * t * 8192 * 36));
  CHECK(FindEw(eager, "norm")->fwd_kernels == 14);
  CHECK(eager.FwdBytes() > te.FwdBytes());
  CHECK(te.FwdBytes() > compiled.FwdBytes());  // Inductor fuses the residual into the norm
  CHECK(eager.FwdKernels() > compiled.FwdKernels());
}

TEST_CASE("without FlashAttention the scores' softmax and dropout are costed", "[cost]") {
  const ModelSpec m = test::Gpt3_175B();  // 96 heads, seq 2048
  const LayerElementwise ew = EwOps(m, OneGpuFused(Fusion::kApex));
  const ElementwiseOp* scores = FindEw(ew, "softmax+dropout");
  REQUIRE(scores);
  const double per_score = 2048.0 * 96 * 2048;  // tokens × heads × keys
  CHECK(scores->fwd_bytes == Approx(9 * per_score));
  CHECK(scores->bwd_bytes == Approx(11 * per_score));
  // And the layer is slower than with FlashAttention, its activations larger.
  const CostGraph d = BuildCostGraph(m);
  const Cluster c = test::DgxA100();
  const LayerCost apex = ComputeLayerCost(d, 0, MakePlanShape(d, OneGpuFused(Fusion::kApex), c), c);
  const LayerCost te = ComputeLayerCost(d, 0, MakePlanShape(d, OneGpuFused(Fusion::kTe), c), c);
  CHECK(apex.fwd_s > te.fwd_s);
  CHECK(apex.act_full_bytes - te.act_full_bytes == Approx(5 * per_score));
}

TEST_CASE("FP8 adds cast-transposes, more of them under torchao", "[cost]") {
  const ModelSpec m = test::Llama3_70B();
  const LayerElementwise te_ops = EwOps(m, OneGpuFused(Fusion::kTe, Precision::kFp8));
  const ElementwiseOp* te = FindEw(te_ops, "fp8 cast");
  REQUIRE(te);
  // Cast-transposed (r2 w1 w1): the attention output (64 heads × 128) and the FC2 input (28672).
  CHECK(te->fwd_bytes == Approx(4.0 * 8192 * (64 * 128 + 28672)));
  // Backward: every GEMM's output gradient cast-transposed (QKV 80 × 128, out proj 8192, FC1
  // 2 × 28672, FC2 8192), and the QKV and FC1 inputs (8192 each) transposed (r1 w1).
  CHECK(te->bwd_bytes ==
        Approx(4.0 * 8192 * (80 * 128 + 8192 + 2 * 28672 + 8192) + 2.0 * 2 * 8192 * 8192));
  CHECK(te->fwd_kernels == 2);
  CHECK(te->bwd_kernels == 6);
  const LayerElementwise eager = EwOps(m, OneGpuFused(Fusion::kEager, Precision::kFp8));
  REQUIRE(FindEw(eager, "fp8 cast"));
  CHECK(FindEw(eager, "fp8 cast")->fwd_bytes > te->fwd_bytes);
}

TEST_CASE("TE's FP8 recipes cast by what each computes (delayed, tensorwise, MXFP8)", "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // h 8192, QKV out 80 x 128, SwiGLU 28672
  const double t = 8192, h = 8192;
  const double fwd = t * (64 * 128 + 28672);                      // attention output, FC2 input
  const double grads = t * (80 * 128 + 8192 + 2 * 28672 + 8192);  // every GEMM's output gradient
  ParallelPlan p = OneGpuFused(Fusion::kTe, Precision::kFp8);
  p.kernels.fp8_recipe = Fp8Recipe::kTensorwise;
  const LayerElementwise cs_ops = EwOps(m, p);
  const ElementwiseOp* cs = FindEw(cs_ops, "fp8 cast");
  REQUIRE(cs);
  // Current scaling: an amax pass (r2) before each cast-transpose (r2 w1 w1); the QKV and FC1
  // inputs leave the norm in bf16 and are cast-transposed in the forward, no backward transpose.
  CHECK(cs->fwd_bytes == Approx(6 * fwd + 4 * 2 * t * h));
  CHECK(cs->bwd_bytes == Approx(6 * grads));
  CHECK(cs->fwd_kernels == 3 * 2 + 2 * 2);  // amax, scale, cast per cast; scale, cast per norm
  CHECK(cs->bwd_kernels == 3 * 4);
  p.kernels.fp8_recipe = Fp8Recipe::kMxfp8;
  const LayerElementwise mx_ops = EwOps(m, p);
  const ElementwiseOp* mx = FindEw(mx_ops, "fp8 cast");
  REQUIRE(mx);
  // MXFP8: both copies and a scale byte per 32 elements of each, from the bf16 source.
  const double per = 4 + 2.0 / 32;
  CHECK(mx->fwd_bytes == Approx(per * (fwd + 2 * t * h)));
  CHECK(mx->bwd_bytes == Approx(per * grads));
  CHECK(mx->fwd_kernels == 2 + 2);
  CHECK(mx->bwd_kernels == 4);
  // Delayed scaling moves the fewest bytes (the norm writes fp8 itself).
  p.kernels.fp8_recipe = Fp8Recipe::kDelayed;
  const LayerElementwise ds_ops = EwOps(m, p);
  const ElementwiseOp* ds = FindEw(ds_ops, "fp8 cast");
  REQUIRE(ds);
  CHECK(ds->fwd_bytes + ds->bwd_bytes < mx->fwd_bytes + mx->bwd_bytes);
  CHECK(mx->fwd_bytes + mx->bwd_bytes < cs->fwd_bytes + cs->bwd_bytes);
  // Under sequence parallelism current scaling casts the sharded norm output row-wise only (r2
  // w1) and transposes the gathered fp8 in the backward, as delayed scaling does.
  p.tp = 4;
  p.sequence_parallel = true;
  p.kernels.fp8_recipe = Fp8Recipe::kTensorwise;
  const LayerElementwise sp_ops = EwOps(m, p);
  const ElementwiseOp* sp = FindEw(sp_ops, "fp8 cast");
  REQUIRE(sp);
  const double fwd4 = t * (64 * 128 + 28672) / 4;
  const double grads4 = t * (20 * 128 + 8192 + 2 * 28672 / 4 + 8192);
  CHECK(sp->fwd_bytes == Approx(6 * fwd4 + 3 * 2 * (t / 4) * h));
  CHECK(sp->bwd_bytes == Approx(6 * grads4 + 2 * 2 * t * h));
}

TEST_CASE("On Blackwell TE's per-tensor FP8 casts write no transposed copy", "[cost]") {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const double t = 8192, h = 8192;
  const double fwd = t * (64 * 128 + 28672);
  const double grads = t * (80 * 128 + 8192 + 2 * 28672 + 8192);
  CHECK_FALSE(Fp8AnyLayout(test::DgxH100().gpu));
  CHECK(Fp8AnyLayout(test::Nvl72().gpu));
  ParallelPlan p = OneGpuFused(Fusion::kTe, Precision::kFp8);
  const auto cast = [&](Fp8Recipe r) {
    p.kernels.fp8_recipe = r;
    const LayerElementwise ew = ComputeLayerElementwise(d, 0, MakePlanShape(d, p, test::Nvl72()));
    const ElementwiseOp* op = FindEw(ew, "fp8 cast");
    REQUIRE(op);
    return *op;
  };
  // Delayed: r2 w1 per cast, no backward transpose of the norm-fused input.
  const ElementwiseOp ds = cast(Fp8Recipe::kDelayed);
  CHECK(ds.fwd_bytes == Approx(3 * fwd));
  CHECK(ds.bwd_bytes == Approx(3 * grads));
  CHECK(ds.bwd_kernels == 4);
  // Current scaling: the amax pass and a row-wise cast; the norm output cast once (r2 w1).
  const ElementwiseOp cs = cast(Fp8Recipe::kTensorwise);
  CHECK(cs.fwd_bytes == Approx(5 * fwd + 3 * 2 * t * h));
  CHECK(cs.bwd_bytes == Approx(5 * grads));
  // MXFP8 needs both copies on any GPU: its blocks run along the other dimension.
  const ElementwiseOp mx = cast(Fp8Recipe::kMxfp8);
  CHECK(mx.fwd_bytes == Approx((4 + 2.0 / 32) * (fwd + 2 * t * h)));
}

TEST_CASE("PyTorch's async TP reduces its stacked partials and copies the local shard", "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // h 8192
  ParallelPlan p = CompiledSpTp8();
  CHECK(FindEw(EwOps(m, p), "async-TP extras") == nullptr);  // NCCL reduces inside its kernel
  p.overlap_tp_comm = true;
  const LayerElementwise ew = EwOps(m, p);
  const ElementwiseOp* x = FindEw(ew, "async-TP extras");
  REQUIRE(x);
  const double t = 8192, h = 8192;
  // Two pairs (attention, MLP): the sum reads 2 B x t x h and writes 1/8 of it; the local shard
  // (t/8 rows) is read and written twice.
  const double pair = 2 * t * h * (1 + 1.0 / 8) + 4 * 2 * t * h / 8;
  CHECK(x->fwd_bytes == Approx(2 * pair));
  // Backward: the all-gather's shard copies, and the unfused reduce-scatter's dim-1 copy of its
  // full input (r2 w2) instead of the stacked-partial sum.
  CHECK(x->bwd_bytes == Approx(2 * (4 * 2 * t * h / 8 + 2 * 2 * t * h)));
  // 7 more GEMM chunks on each side, 7 + 2 barriers, a sum and two copies, per pair.
  CHECK(x->fwd_kernels == Approx(2 * (14 + 9 + 3)));
  // Backward: the all-gather side's 7 chunks, 2 barriers and 2 copies, and the dim-1 copy.
  CHECK(x->bwd_kernels == Approx(2 * (7 + 2 + 2 + 1)));
  // fp8 all-gathers their inputs in fp8 (torchao's float8 TP): the copies halve.
  p.precision = Precision::kFp8;
  const LayerElementwise ew8 = EwOps(m, p);
  const ElementwiseOp* x8 = FindEw(ew8, "async-TP extras");
  REQUIRE(x8);
  CHECK(x8->fwd_bytes == Approx(2 * (2 * t * h * (1 + 1.0 / 8) + 4 * t * h / 8)));
  // Transformer Engine's TP overlap is its own kernels (userbuffers): no extras here.
  p.kernels.fusion = Fusion::kTe;
  CHECK(FindEw(EwOps(m, p), "async-TP extras") == nullptr);
}

TEST_CASE("PyTorch's ring attention merges each step's output in fp32", "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // 64 q / 8 kv heads x 128
  ParallelPlan p = OneGpuFused(Fusion::kEager);
  p.cp = 4;
  p.dp = 1;
  p.micro_batch = 1;
  const LayerElementwise ew = EwOps(m, p);
  const ElementwiseOp* x = FindEw(ew, "ring-attention merge");
  REQUIRE(x);
  const double t = 8192.0 / 4;  // local tokens
  const double out = t * 64 * 128, kv = 2 * t * 8 * 128;
  // K/V copied contiguous and concatenated for each of 3 sends, every pass: 4 x 4 B per element.
  // dK/dV: zero 4, first accumulate 10, 3 partial updates 13 each, 4 send buffers 8 each, cast 6.
  CHECK(x->fwd_bytes == Approx(out * (6 + 38 * 3 + 6) + kv * 16));
  CHECK(x->bwd_bytes == Approx(out * (4 + 10 * 4 + 6) + kv * (4 + 10 + 39 + 32 + 6) + kv * 16));
  CHECK(x->fwd_kernels == Approx(2 + 3 + 20));
  CHECK(x->bwd_kernels == Approx(3 + 2 + 3 + 2 + 12 + 8 + 2));
  CHECK(FindEw(ew, "repeat K/V") == nullptr);  // the model's GQA heads reach the kernel
  // torchtitan's Llama repeats K/V to the 64 query heads: copied, passed and accumulated 8x.
  p.kernels.repeat_kv = true;
  const LayerElementwise rep = EwOps(m, p);
  const ElementwiseOp* xr = FindEw(rep, "ring-attention merge");
  REQUIRE(xr);
  CHECK(xr->fwd_bytes == Approx(out * (6 + 38 * 3 + 6) + 8 * kv * 16));
  CHECK(xr->bwd_bytes ==
        Approx(out * (4 + 10 * 4 + 6) + 8 * kv * (4 + 10 + 39 + 32 + 6) + 8 * kv * 16));
  const ElementwiseOp* copy = FindEw(rep, "repeat K/V");
  REQUIRE(copy);
  CHECK(copy->fwd_bytes == Approx(2 * t * (8 + 64) * 256));  // r2 per kv, w2 per q-head element
  CHECK(copy->bwd_bytes == Approx(copy->fwd_bytes));         // the expand's sum back
  CHECK(copy->fwd_kernels == Approx(2));
  p.kernels.repeat_kv = false;
  // One GPU per sequence: nothing to merge; Transformer Engine merges its own way
  // (te_context_parallel.h).
  p.cp = 1;
  CHECK(FindEw(EwOps(m, p), "ring-attention merge") == nullptr);
  p.cp = 4;
  p.kernels.fusion = Fusion::kTe;
  CHECK(FindEw(EwOps(m, p), "ring-attention merge") == nullptr);
}

TEST_CASE("CUDA graphs shorten every launch to the replay gap", "[cost]") {
  Cluster c = test::DgxH100();
  c.efficiency.kernel_launch_us = 5;
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  ParallelPlan p = OneGpuFused(Fusion::kTe);
  CHECK(LaunchSeconds(c, MakePlanShape(d, p, c)) == Approx(5e-6));
  p.kernels.cuda_graphs = true;
  CHECK(LaunchSeconds(c, MakePlanShape(d, p, c)) == Approx(1e-6));
}

TEST_CASE("the per-op table sums to the layer's forward and backward", "[cost]") {
  const Cluster c = test::DgxH100();
  for (const ModelSpec& m : {test::Llama3_70B(), test::Mixtral8x7B(), test::Gpt3_175B()}) {
    for (Fusion f : {Fusion::kTe, Fusion::kApex, Fusion::kEager, Fusion::kCompile}) {
      ParallelPlan p = OneGpuFused(f);
      p.tp = 2;
      p.dp = 1;
      p.sequence_parallel = true;
      INFO(m.name << " " << ToString(f));
      const std::vector<LayerOpsTable> tables = ComputeLayerOps(m, c, p);
      REQUIRE_FALSE(tables.empty());
      for (const LayerOpsTable& t : tables) {
        double fwd = 0, bwd = 0;
        for (const LayerOpRow& r : t.rows) {
          fwd += r.fwd_s;
          bwd += r.bwd_s;
        }
        CHECK(fwd == Approx(t.total.fwd_s).epsilon(1e-9));
        CHECK(bwd == Approx(t.total.bwd_s).epsilon(1e-9));
      }
    }
  }
}

TEST_CASE("a fused framework takes a shorter step than eager PyTorch", "[cost]") {
  const ModelSpec m = test::Llama3_70B();
  const Cluster c = test::DgxH100();
  ParallelPlan p;
  p.tp = 8;
  p.dp = 1;
  p.micro_batch = 1;
  p.global_batch = 4;
  p.sequence_parallel = true;
  const StepModel model(m, c, 8);
  p.kernels.fusion = Fusion::kEager;
  const double eager = model.Estimate(p).step_time_s;
  p.kernels.fusion = Fusion::kCompile;
  const double compiled = model.Estimate(p).step_time_s;
  p.kernels.fusion = Fusion::kTe;
  const double te = model.Estimate(p).step_time_s;
  CHECK(eager > compiled);
  CHECK(eager > te);
}

TEST_CASE("FP8 casts of an MoE layer follow the routed copies into the experts", "[cost]") {
  const ModelSpec m = test::Mixtral8x7B();  // h 4096, 32 q / 8 kv × 128, 8 experts top-2, 14336
  const CostGraph d = BuildCostGraph(m);
  const PlanShape p = MakePlanShape(d, OneGpuFused(Fusion::kTe, Precision::kFp8), test::DgxH100());
  REQUIRE(p.moe_load >= 1.0);
  const double t = p.tokens, routed = t * 2 * p.moe_load;  // top-2 copies, busiest rank
  const LayerElementwise moe = ComputeLayerElementwise(d, 1, p);
  const ElementwiseOp* cast = FindEw(moe, "fp8 cast");
  REQUIRE(cast);
  // The attention output, then every routed copy's fc1 input (h) and fc2 input (expert width),
  // cast-transposed (r2 w1 w1) by TransformerEngine's GroupedLinear.
  CHECK(cast->fwd_bytes == Approx(4.0 * (t * 32 * 128 + routed * (4096 + 14336))));
  // Output gradients: QKV (48 heads × 128) and out proj per token, fc1 (2 × 14336, SwiGLU) and
  // fc2 per routed copy.
  // And the QKV input, cast inside the norm, transposed for its weight gradient (r1 w1).
  CHECK(cast->bwd_bytes ==
        Approx(4.0 * (t * (48 * 128 + 4096) + routed * (2 * 14336 + 4096)) + 2.0 * t * 4096));
  CHECK(cast->fwd_kernels == 3);
  // A dense layer of the same model casts its FC2 input itself (Megatron-Core's activation kernel
  // writes bf16); its FC1 input is cast inside the norm.
  const LayerElementwise dense_ops = ComputeLayerElementwise(d, 0, p);
  const ElementwiseOp* dense = FindEw(dense_ops, "fp8 cast");
  REQUIRE(dense);
  CHECK(dense->fwd_bytes == Approx(4.0 * t * (32 * 128 + 14336)));
}

TEST_CASE("A fused norm kernel in an eager layer moves the fused kernel's bytes", "[cost]") {
  // Aleph Alpha Scaling's "flash_attention2 + RMS kernel" runs (Hagemann et al. 2023): the layer
  // is eager PyTorch but the RMSNorm one kernel reading x and writing y (r2 w2), not eager's seven
  // kernels and 36 B per element; every other op keeps the eager profile.
  const ModelSpec m = test::Llama3_70B();
  const LayerElementwise eager = EwOps(m, OneGpuFused(Fusion::kEager));
  ParallelPlan p = OneGpuFused(Fusion::kEager);
  p.kernels.fused_norm = true;
  const LayerElementwise fused = EwOps(m, p);
  const double t = 8192;
  REQUIRE(FindEw(eager, "norm"));
  REQUIRE(FindEw(fused, "norm"));
  CHECK(FindEw(eager, "norm")->fwd_bytes == Approx(2 * t * 8192 * 36));
  CHECK(FindEw(eager, "norm")->fwd_kernels == 14);
  CHECK(FindEw(fused, "norm")->fwd_bytes == Approx(2 * t * 8192 * 4));
  CHECK(FindEw(fused, "norm")->fwd_kernels == 2);
  CHECK(FindEw(fused, "rope")->fwd_bytes == Approx(FindEw(eager, "rope")->fwd_bytes));
  CHECK(fused.FwdBytes() == Approx(eager.FwdBytes() - 2 * t * 8192 * 32));
}

TEST_CASE("DTensor's sequence-parallel collectives copy the full tensor along dim 1", "[cost]") {
  const ModelSpec m = test::Llama3_70B();  // h 8192
  ParallelPlan p = CompiledSpTp8();
  CHECK(FindEw(EwOps(m, p), "SP dim-1 copies") == nullptr);  // Megatron's own collectives: no copy
  p.kernels.sp_dim1_copies = true;
  const LayerElementwise bf16 = EwOps(m, p);  // Find points into it: it must outlive x
  const ElementwiseOp* x = FindEw(bf16, "SP dim-1 copies");
  REQUIRE(x);
  const double t = 8192, h = 8192;
  // Two blocks, each an all-gather and a reduce-scatter whose torch.cat reads and writes
  // 2 B x t x h; the backward's as many.
  CHECK(x->fwd_bytes == Approx(2 * 2 * (2 + 2) * t * h));
  CHECK(x->bwd_bytes == Approx(x->fwd_bytes));
  CHECK(x->fwd_kernels == Approx(4));
  // torchao's float8 TP gathers in fp8: the all-gather's copy halves.
  p.precision = Precision::kFp8;
  const LayerElementwise fp8 = EwOps(m, p);
  const ElementwiseOp* x8 = FindEw(fp8, "SP dim-1 copies");
  REQUIRE(x8);
  CHECK(x8->fwd_bytes == Approx(2 * 2 * (1 + 2) * t * h));
  // Async TP's symmetric-memory path has its own extras; no SP, no copies.
  p.overlap_tp_comm = true;
  CHECK(FindEw(EwOps(m, p), "SP dim-1 copies") == nullptr);
  p.overlap_tp_comm = false;
  p.sequence_parallel = false;
  CHECK(FindEw(EwOps(m, p), "SP dim-1 copies") == nullptr);
}
