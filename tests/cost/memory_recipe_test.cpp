// Issue 17's later memory terms against hand arithmetic: where MoE applies the routing
// probabilities (moe_probs), the EMA of the weights (ema), the MTP loss's saved softmax, and the
// "other" memory by term.
#include <catch2/catch.hpp>

#include "cost/activation_terms.h"
#include "cost/memory_model.h"
#include "evaluate/step_model.h"
#include "plan/plan_rules.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

// Mixtral 8x7B, tp=1, one 4096-token micro-batch: 8192 routed tokens of h = 4096.
constexpr double kRouted = 8192, kHidden = 4096;
constexpr double kExpertTokens = 2 * kRouted * kHidden;  // routed tokens, bf16
constexpr double kRecipeProbs = 4 * kRouted;             // permuted probabilities, fp32

ActivationTerms MixtralTerms(MoeProbs probs, bool fp8_cache = false) {
  const ModelSpec m = test::Mixtral8x7B();
  const CostGraph d = BuildCostGraph(m);
  ParallelPlan p;
  p.micro_batch = 1;
  p.global_batch = 1;
  p.recipe.moe_probs = probs;
  p.recipe.fp8_act_cache = fp8_cache;
  return ComputeActivationTerms(d, 1, MakePlanShape(d, p, test::DgxH100()));
}

}  // namespace

TEST_CASE("moe_probs: what the routing probabilities' multiply keeps", "[cost][memory]") {
  const ActivationTerms act = MixtralTerms(MoeProbs::kActivation);
  const ActivationTerms out = MixtralTerms(MoeProbs::kOutput);
  const ActivationTerms in = MixtralTerms(MoeProbs::kInput);
  // auto is Megatron-Core's default: the probabilities scale the activation function's output.
  CHECK(MixtralTerms(MoeProbs::kAuto).Total() == Approx(act.Total()));
  // activation: the probs only (the activation's input is kept anyway, expert_act_in).
  CHECK(act.expert_out == 0);
  CHECK(act.expert_unscaled == 0);
  CHECK(act.expert_probs == Approx(kRecipeProbs));
  // output: the unpermute's multiply keeps the expert output for the probabilities' gradient.
  CHECK(out.expert_out == Approx(kExpertTokens));
  CHECK(out.Total() - act.Total() == Approx(kExpertTokens));
  // input: the multiply before FC1 keeps the unscaled tokens, FC1 its scaled input.
  CHECK(in.expert_out == 0);
  CHECK(in.expert_unscaled == Approx(kExpertTokens));
  CHECK(in.expert_in == Approx(kExpertTokens));
  CHECK(in.Total() == Approx(out.Total()));
  // FP8 caching stores Linear inputs in FP8; the multiply's saved tokens are not one.
  const ActivationTerms in8 = MixtralTerms(MoeProbs::kInput, true);
  CHECK(in8.expert_unscaled == Approx(kExpertTokens));
}

TEST_CASE("moe_probs=input needs top-1 routing", "[cost][memory]") {
  ParallelPlan p;
  p.dp = 8;
  p.global_batch = 64;
  p.recipe.moe_probs = MoeProbs::kInput;
  const auto problems = PlanViolations(test::Mixtral8x7B(), test::DgxH100(), 8, p);
  REQUIRE_FALSE(problems.empty());
  CHECK(problems[0].find("top-1") != std::string::npos);
}

TEST_CASE("EMA of the weights: 4 fp32 bytes per parameter, sharded like the optimizer",
          "[cost][memory]") {
  StageMemoryInput in;
  in.dense_params = 1e9;
  in.expert_params = 4e9;
  in.dense_shards = 128;
  in.expert_shards = 2;
  const StageMemory none = ComputeStageMemory(in, 1, 0);
  in.ema_bytes_per_param = kEmaBytes;
  const StageMemory gpu = ComputeStageMemory(in, 1, 0);
  CHECK(none.ema_bytes == 0);
  CHECK(gpu.ema_bytes == Approx(4 * (1e9 / 128 + 4e9 / 2)));
  CHECK(gpu.optimizer_bytes - none.optimizer_bytes == Approx(gpu.ema_bytes));
  CHECK(ComputeStageMemory(in, 0, 0).ema_bytes == Approx(4 * 5e9));  // zero=0: unsharded
}

TEST_CASE("other memory by term sums to other", "[cost][memory]") {
  StageMemoryInput in;
  in.act_per_micro_batch = 3e9;
  in.micro_batches_held = 2;
  in.act_working = 1e9;
  in.logits_bytes = 2e9;
  in.comm_buffer_bytes = 0.5e9;
  const StageMemory m = ComputeStageMemory(in, 1, 3);
  CHECK(m.logits_bytes == 2e9);
  CHECK(m.buffers_bytes == 0.5e9);
  CHECK(m.reserve_bytes == Approx(1024.0 * 1024 * 1024));
  CHECK(m.fragmentation_bytes == Approx(0.07 * (3e9 * 2 + 1e9 + 2e9 + 0.5e9)));
  CHECK(m.other_bytes ==
        Approx(m.logits_bytes + m.buffers_bytes + m.reserve_bytes + m.fragmentation_bytes));
}

TEST_CASE("an MTP module on the loss stage adds only its loss's fp32 softmax", "[cost][memory]") {
  ModelSpec m = test::Mixtral8x7B();
  ParallelPlan p;
  p.pp = 2;
  p.dp = 4;
  p.global_batch = 64;
  const StepResult plain = StepModel(m, test::DgxH100(), 8).Estimate(p);
  m.mtp_layers = 1;
  const StepResult mtp = StepModel(m, test::DgxH100(), 8).Estimate(p);
  // The main loss: bf16 logits, fp32 logits and their gradient, 4096 tokens x 32000 vocab.
  const double logits = 4096.0 * 32000 * (2 + 4 + 4);
  CHECK(plain.memory[1].logits_bytes == Approx(logits));
  CHECK(plain.memory[0].logits_bytes == 0);
  // The MTP loss keeps its fp32 softmax for backward; the workspace is the main loss's.
  CHECK(mtp.memory[1].logits_bytes - plain.memory[1].logits_bytes == Approx(4096.0 * 32000 * 4));
}
