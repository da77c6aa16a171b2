// Issue 17, "memory as the frameworks allocate it", against hand arithmetic: Megatron-Core's
// grad_reduce_in_fp32=False (a bf16 gradient buffer, reduced in bf16; FSDP2's reduce_dtype) and
// Transformer Engine's fp8 copies of the Linear inputs it saves for backward.
#include <catch2/catch.hpp>

#include "cost/activation_terms.h"
#include "cost/collective_calls.h"
#include "cost/memory_model.h"
#include "evaluate/step_model.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan Gpt3Plan() {
  ParallelPlan p;
  p.tp = 8;
  p.pp = 1;
  p.dp = 16;
  p.zero = 1;
  p.micro_batch = 1;
  p.global_batch = 16;
  p.sequence_parallel = true;
  return p;
}

// One GPT-3 175B layer at tp = 8 with SP, one 2048-token sequence: t = 2048 tokens, T_n = 256
// norm tokens, h = 12288, f = 49152, 96 heads of 128 (12 per GPU, MHA), GeLU (gate = 1).
constexpr double kT = 2048, kTn = 256, kH = 12288, kF = 49152 / 8.0, kHeadsLocal = 12;
constexpr double kGradResidual = 2 * 2 * kTn * kH;  // two bf16 norm inputs
constexpr double kNormOut = 2 * 2 * kTn * kH;       // two bf16 norm outputs (QKV, FC1 input)
constexpr double kGradAttnOut = 2 * kT * kHeadsLocal * 128;
constexpr double kFc2In = 2 * kT * kF;

ActivationTerms Gpt3Terms(Precision precision, Fusion fusion) {
  const ModelSpec m = test::Gpt3_175B();
  const CostGraph d = BuildCostGraph(m);
  ParallelPlan p = Gpt3Plan();
  p.precision = precision;
  p.kernels.fusion = fusion;
  return ComputeActivationTerms(d, 0, MakePlanShape(d, p, test::DgxH100()));
}

}  // namespace

TEST_CASE("grad_reduce_in_fp32: the buffer's and the reduction's dtype", "[cost][memory]") {
  ParallelPlan p = Gpt3Plan();
  CHECK(GradBufferBytes(p) == 4);
  CHECK(KeptGradBytes(p) == 4);
  CHECK(DpGradCommDtype(p) == CommDtype::kFp32);
  CHECK(DpBucketBytes(p) == Approx(40e6 * 4));  // max(40M, 1M x 16) fp32 elements
  p.grad_reduce_in_fp32 = false;
  CHECK(GradBufferBytes(p) == 2);
  CHECK(KeptGradBytes(p) == 2);
  CHECK(DpGradCommDtype(p) == CommDtype::kBf16);  // the buffer is reduced in place
  CHECK(DpBucketBytes(p) == Approx(40e6 * 2));
  p.dp_comm_dtype = CommDtype::kFp8;  // narrower than the buffer: kept
  CHECK(DpGradCommDtype(p) == CommDtype::kFp8);
  // FSDP2 (zero 3, a PyTorch profile): reduce_dtype bf16, the sharded gradient cast back to fp32.
  p.dp_comm_dtype = CommDtype::kFp32;
  p.zero = 3;
  p.kernels.fusion = Fusion::kCompile;
  CHECK(KeptGradBytes(p) == 4);
  CHECK(GradBufferBytes(p) == 2);
  p.kernels.fusion = Fusion::kTe;  // Megatron-Core's own FSDP keeps the bf16 buffer's shards
  CHECK(KeptGradBytes(p) == 2);
}

TEST_CASE("a bf16 gradient buffer is 2 bytes per parameter, sharded as before", "[cost][memory]") {
  StageMemoryInput in;
  in.dense_params = 1e9;
  in.dense_shards = 8;
  in.grad_bytes = 2;
  in.accumulated_grad_bytes = 2;
  CHECK(ComputeStageMemory(in, 0, 0).grads_bytes == Approx(2e9));
  CHECK(ComputeStageMemory(in, 1, 0).grads_bytes == Approx(2e9));
  CHECK(ComputeStageMemory(in, 2, 0).grads_bytes == Approx(0.25e9));
  // FSDP2 kept gathered: fp32 shards (4 / 8 per parameter) + bf16 unsharded accumulation.
  in.grad_bytes = 4;
  in.keep_gathered = true;
  CHECK(ComputeStageMemory(in, 3, 0).grads_bytes == Approx(0.5e9 + 2e9));
}

TEST_CASE("grad_reduce_in_fp32=false halves the gradients and the DP gradient bytes",
          "[cost][memory]") {
  const ModelSpec m = test::Gpt3_175B();
  const Cluster c = test::DgxH100();
  const StepModel model(m, c, 128);
  ParallelPlan p = Gpt3Plan();
  const StepResult fp32 = model.Estimate(p);
  p.grad_reduce_in_fp32 = false;
  const StepResult bf16 = model.Estimate(p);
  REQUIRE(fp32.memory.size() == 1);
  REQUIRE(bf16.memory.size() == 1);
  // Every parameter on the GPU (tp = 8, all 96 layers and the embedding / output): 4 -> 2 bytes.
  CHECK(bf16.memory[0].grads_bytes == Approx(fp32.memory[0].grads_bytes / 2));
  CHECK(fp32.memory[0].grads_bytes - bf16.memory[0].grads_bytes ==
        Approx(2 * fp32.memory[0].weights_bytes / 2));
  CHECK(bf16.memory[0].weights_bytes == fp32.memory[0].weights_bytes);
  CHECK(bf16.memory[0].optimizer_bytes == fp32.memory[0].optimizer_bytes);
  CHECK(bf16.memory[0].activations_bytes == fp32.memory[0].activations_bytes);
  // The reduce-scatter's buckets carry bf16: half the bytes per bucket (DescribeCollectives).
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  auto grad_bucket = [&](const ParallelPlan& plan) {
    PlanEvaluation e;
    EvaluatePlanTime(d, c, links, plan, &e);
    for (const CollectiveCall& call : DescribeCollectives(d, c, links, plan, e)) {
      if (call.group == "dp" && call.op == "reduce_scatter") return call.bytes;
    }
    return 0.0;
  };
  ParallelPlan q = Gpt3Plan();
  const double fp32_bucket = grad_bucket(q);
  q.grad_reduce_in_fp32 = false;
  REQUIRE(fp32_bucket > 0);
  CHECK(grad_bucket(q) == Approx(fp32_bucket / 2));
}

TEST_CASE("Transformer Engine under fp8 keeps fp8 copies of the Linear inputs", "[cost][memory]") {
  const ActivationTerms bf16 = Gpt3Terms(Precision::kBf16, Fusion::kTe);
  CHECK_FALSE(bf16.te_fp8);
  CHECK(bf16.residual == Approx(kGradResidual));
  CHECK(bf16.norm_out == Approx(kNormOut));
  CHECK(bf16.attn_out == Approx(kGradAttnOut));
  CHECK(bf16.mlp_act_out == Approx(kFc2In));
  const ActivationTerms te = Gpt3Terms(Precision::kFp8, Fusion::kTe);
  CHECK(te.te_fp8);
  CHECK(te.residual == Approx(kGradResidual));       // LayerNormLinear's bf16 input
  CHECK(te.norm_out == Approx(kNormOut / 2));        // ln_out in fp8
  CHECK(te.attn_out == Approx(kGradAttnOut * 1.5));  // attention's bf16 O + the projection's fp8
  CHECK(te.mlp_act_out == Approx(kFc2In / 2));       // FC2's inputmat in fp8
  CHECK(te.qkv == Approx(bf16.qkv));
  CHECK(te.mlp_act_in == Approx(bf16.mlp_act_in));  // the activation's bf16 input
  // Per layer: -2 T_n h (norm outputs) + T h/t (attention output) - T f/t (FC2 input).
  CHECK(te.Total() - bf16.Total() == Approx(-2 * kTn * kH + kT * kH / 8 - kT * kF));
  // torchao's Float8Linear (torchtitan) saves the bf16 inputs.
  CHECK(Gpt3Terms(Precision::kFp8, Fusion::kCompile).Total() == Approx(bf16.Total()));
  CHECK(Gpt3Terms(Precision::kFp8, Fusion::kEager).Total() == Approx(bf16.Total()));
}

TEST_CASE("fp8_act_cache on top of Transformer Engine's fp8 halves nothing twice",
          "[cost][memory]") {
  const ModelSpec m = test::Gpt3_175B();
  const CostGraph d = BuildCostGraph(m);
  const Cluster c = test::DgxH100();
  ParallelPlan p = Gpt3Plan();
  p.precision = Precision::kFp8;
  const PlanShape plain = MakePlanShape(d, p, c);
  const ActivationTerms terms = ComputeActivationTerms(d, 0, plain);
  p.recipe.fp8_act_cache = true;
  const PlanShape cached = MakePlanShape(d, p, c);
  const RecipeActivations kept =
      ApplyMemoryRecipe(d, 0, cached, c, ComputeActivationTerms(d, 0, cached), 0);
  // Dense, no MLA: only the attention output changes, to one E5M6 copy (12 bits of 16).
  CHECK(kept.kept_bytes == Approx(terms.Total() - 1.5 * kGradAttnOut + 0.75 * kGradAttnOut));
}
