// Issue 17's memory terms against hand arithmetic: activations term by term, what Megatron-LM's
// --recompute-modules and FP8 activation caching keep, the optimizer's moment precision and
// DualPipe's two stages per rank.
#include "cost/activation_terms.h"

#include <catch2/catch.hpp>

#include "cost/compute_cost.h"
#include "cost/layer_cost.h"
#include "cost/memory_model.h"
#include "evaluate/step_model.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// Mixtral 8x7B, tp=1, one 4096-token micro-batch: t = 4096, h = 4096, 32 heads (8 kv) of 128,
// 8 experts top-2 of width 14336 (SwiGLU), so 8192 routed tokens.
struct MixtralLayer {
  ModelSpec m = test::Mixtral8x7B();
  CostGraph d = BuildCostGraph(m);
  Cluster c = test::DgxH100();
  ParallelPlan p;
  MixtralLayer() {
    p.micro_batch = 1;
    p.global_batch = 1;
  }
  PlanShape Shape() const { return MakePlanShape(d, p, c); }
};

constexpr double kResidual = 2 * 2 * 4096.0 * 4096;         // two 16-bit norm inputs
constexpr double kQkv = 2 * 4096.0 * (32 * 128 + 8 * 256);  // q and the 8 kv heads' k, v
constexpr double kAttnOut = 2 * 4096.0 * 4096;
constexpr double kStats = 4 * 4096.0 * 32;
constexpr double kRouter = 4 * 4096.0 * 8;
constexpr double kExpertIn = 2 * 8192.0 * 4096;
constexpr double kActIn = 2 * 8192.0 * 14336 * 2;
constexpr double kActOut = 2 * 8192.0 * 14336;
constexpr double kProbs = 4 * 8192.0;  // the permuted routing probabilities, fp32
// moe_probs=auto: the probabilities scale the activation (Megatron-Core's default), so the
// expert outputs are not kept.
constexpr double kTotal =
    2 * kResidual + kQkv + kAttnOut + kStats + kRouter + kExpertIn + kActIn + kActOut + kProbs;

}  // namespace

TEST_CASE("activation terms of an MoE layer by hand", "[cost][memory]") {
  const MixtralLayer x;
  const ActivationTerms a = ComputeActivationTerms(x.d, 1, x.Shape());
  CHECK(a.residual == Approx(kResidual));
  CHECK(a.norm_out == Approx(kResidual));
  CHECK(a.qkv == Approx(kQkv));
  CHECK(a.latents == 0);
  CHECK(a.attn_out == Approx(kAttnOut));
  CHECK(a.softmax_stats == Approx(kStats));
  CHECK(a.router == Approx(kRouter));
  CHECK(a.expert_in == Approx(kExpertIn));
  CHECK(a.expert_act_in == Approx(kActIn));
  CHECK(a.expert_act_out == Approx(kActOut));
  CHECK(a.expert_out == 0);
  CHECK(a.expert_probs == Approx(kProbs));
  CHECK(a.expert_unscaled == 0);
  CHECK(a.Total() == Approx(kTotal));
  // The layer cost's no-recompute activations are these terms' sum.
  CHECK(ComputeLayerCost(x.d, 1, x.Shape(), x.c).act_bytes == Approx(kTotal));
}

TEST_CASE("repeated K/V are what SDPA keeps for its backward", "[cost][memory]") {
  MixtralLayer x;
  x.p.kernels.fusion = Fusion::kCompile;
  x.p.kernels.repeat_kv = true;  // K and V at the 32 query heads
  const ActivationTerms a = ComputeActivationTerms(x.d, 1, x.Shape());
  CHECK(a.qkv == Approx(2 * 4096.0 * (32 * 128 + 32 * 256)));
  CHECK(a.qkv - kQkv == Approx(2 * 4096.0 * 24 * 256));  // 24 more heads of k and v
}

TEST_CASE("recompute modules keep what Megatron-LM keeps", "[cost][memory]") {
  MixtralLayer x;
  x.p.recompute = Recompute::kSelective;
  // Default (core_attn): only FlashAttention's statistics go, core attention is redone.
  LayerCost l = ComputeLayerCost(x.d, 1, x.Shape(), x.c);
  CHECK(l.act_bytes == Approx(kTotal - kStats));
  CHECK(l.recompute_s > 0);
  // A named list replaces the default: layernorm + moe_act keep the statistics.
  x.p.recipe.recompute_modules = static_cast<uint32_t>(RecomputeModule::kLayernorm) |
                                 static_cast<uint32_t>(RecomputeModule::kMoeAct);
  l = ComputeLayerCost(x.d, 1, x.Shape(), x.c);
  CHECK(l.act_bytes == Approx(kTotal - kResidual - kActOut));
  const double norms = MemoryBoundSeconds(x.c, 2 * 2 * 2 * 4096.0 * 4096);
  const double act = MemoryBoundSeconds(x.c, kActIn + kActOut);
  CHECK(l.recompute_s == Approx(norms + act));
  // mla_up_proj is a no-op without MLA; moe keeps only the block's input.
  x.p.recipe.recompute_modules = static_cast<uint32_t>(RecomputeModule::kMlaUpProj) |
                                 static_cast<uint32_t>(RecomputeModule::kMoe);
  l = ComputeLayerCost(x.d, 1, x.Shape(), x.c);
  CHECK(l.act_bytes == Approx(kTotal - kRouter - kExpertIn - kActIn - kActOut - kProbs));
}

TEST_CASE("FP8 activation caching stores Linear inputs in one byte", "[cost][memory]") {
  MixtralLayer x;
  x.p.recipe.fp8_act_cache = true;
  const LayerCost l = ComputeLayerCost(x.d, 1, x.Shape(), x.c);
  // Norm outputs and dispatched tokens halve, the attention output in E5M6 (12 of 16 bits), the
  // SwiGLU input halves and its output is recomputed (DeepSeek-V3 report, Sec. 3.3.3).
  const double kept = kResidual + kResidual / 2 + kQkv + 0.75 * kAttnOut + kStats + kRouter +
                      kExpertIn / 2 + kActIn / 2 + kProbs;
  CHECK(l.act_bytes == Approx(kept));
  CHECK(l.recompute_s == Approx(MemoryBoundSeconds(x.c, kActIn + kActOut)));
}

TEST_CASE("bf16 Adam moments: 8 optimizer bytes per parameter, not 12", "[cost][memory]") {
  CHECK(OptimizerStateBytes(MomentDtype::kFp32) == 12);
  CHECK(OptimizerStateBytes(MomentDtype::kBf16) == 8);
  StageMemoryInput in;
  in.dense_params = 1e9;
  in.expert_params = 4e9;
  in.dense_shards = 128;
  in.expert_shards = 2;
  in.optimizer_state_bytes = OptimizerStateBytes(MomentDtype::kBf16);
  CHECK(ComputeStageMemory(in, 1, 0).optimizer_bytes == Approx(8 * (1e9 / 128 + 4e9 / 2)));
  CHECK(ComputeStageMemory(in, 0, 0).optimizer_bytes == Approx(8 * 5e9));
}

TEST_CASE("DualPipe: a rank holds its stage and the mirrored one", "[cost][memory]") {
  const ModelSpec m = test::Gpt3_175B();
  const StepModel model(m, test::DgxH100(), 8);
  ParallelPlan p;
  p.pp = 4;
  p.dp = 2;
  p.global_batch = 64;
  p.pp_layers = {24, 36, 12, 24};
  const StepResult one = model.Estimate(p);
  p.schedule = Schedule::kDualPipe;
  const StepResult dual = model.Estimate(p);
  REQUIRE(dual.memory.size() == 4);
  // Rank 1 holds stage 1 (36 layers) and stage 2 (12 layers); rank 0 stages 0 and 3.
  CHECK(dual.memory[1].weights_bytes ==
        Approx(one.memory[1].weights_bytes + one.memory[2].weights_bytes));
  CHECK(dual.memory[0].weights_bytes ==
        Approx(one.memory[0].weights_bytes + one.memory[3].weights_bytes));
  CHECK(dual.memory[3].TotalBytes() == Approx(dual.memory[0].TotalBytes()));
  // pp + 1 = 5 micro-batch chunks, half of each stage's: (36 + 12) / 2 layers' worth each.
  const double per_layer = one.memory[2].activations_bytes / 2 / 12;  // stage 2 held 2
  CHECK(dual.memory[1].activations_bytes == Approx(5 * 24 * per_layer).epsilon(0.02));
}
