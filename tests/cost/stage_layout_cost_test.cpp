// Per-stage costs and memory follow the pipeline layout (issue 15), against hand arithmetic.
#include <catch2/catch.hpp>

#include "cost/memory_model.h"
#include "evaluate/step_model.h"
#include "plan/plan_rules.h"
#include "sim/pipeline_simulator.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan Uneven() {
  ParallelPlan p;
  p.pp = 4;
  p.dp = 2;
  p.global_batch = 64;  // 32 micro-batches per pipeline
  p.pp_layers = {24, 36, 12, 24};
  return p;
}

}  // namespace

TEST_CASE("per-stage memory follows an uneven layout (hand arithmetic)", "[cost][layout]") {
  const ModelSpec m = test::Gpt3_175B();
  const StepModel model(m, test::DgxH100(), 8);
  const ParallelPlan p = Uneven();
  REQUIRE(PlanViolations(m, model.cluster(), 8, p).empty());
  const StepResult r = model.Estimate(p);
  REQUIRE(r.memory.size() == 4);
  const double h = 12288;
  const double layer = 12 * h * h + 4 * h;  // 4h² + 2h attention, 8h² + 2h MLP (LayerNorm)
  // bf16 weights: stage 1 holds 24 more layers than stage 2; stage 0 adds the embedding.
  CHECK(r.memory[1].weights_bytes - r.memory[2].weights_bytes == Approx(24 * layer * 2));
  CHECK(r.memory[0].weights_bytes == Approx((24 * layer + 51200 * h) * 2));
  // fp32 gradients and Adam state (4 + 12 bytes), unsharded at zero=0.
  CHECK(r.memory[1].grads_bytes == Approx(36 * layer * 4));
  CHECK(r.memory[2].optimizer_bytes == Approx(12 * layer * 12));
  // 1F1B: stage s holds pp - s micro-batches: (36 layers x 3) / (12 layers x 2).
  CHECK(r.memory[1].activations_bytes / r.memory[2].activations_bytes == Approx(4.5));
  CHECK(r.loads[1].layers == 36);
  CHECK(r.virtual_stage_layers == std::vector<int64_t>{24, 36, 12, 24});
}

TEST_CASE("the simulator gets each stage's own times", "[cost][layout]") {
  const StepModel model(test::Gpt3_175B(), test::DgxH100(), 8);
  const PipelineInput in = model.BuildPipelineInput(Uneven());
  const double f1 = static_cast<double>(in.stages[1].chunks[0].forward);
  const double f2 = static_cast<double>(in.stages[2].chunks[0].forward);
  CHECK(f1 / f2 == Approx(3.0).epsilon(1e-6));  // 36 layers against 12, no embedding or loss
}

TEST_CASE("interleaved chunks of an uneven automatic layout cost what they hold",
          "[cost][layout]") {
  ModelSpec m = test::Llama3_70B();
  m.layers = 126;  // Llama 3.1 405B's count: pp*vpp = 128 does not divide it
  ParallelPlan p;
  p.pp = 16;
  p.vpp = 8;
  p.dp = 1;
  p.schedule = Schedule::kInterleaved;
  p.global_batch = 32;
  const StepModel model(m, test::DgxH100(), 16);
  REQUIRE(PlanViolations(m, model.cluster(), 16, p).empty());
  const StepResult r = model.Estimate(p);
  REQUIRE(r.virtual_stage_layers.size() == 128);
  CHECK(r.virtual_stage_layers.front() == 0);  // the embedding alone
  CHECK(r.virtual_stage_layers.back() == 0);   // the loss alone
  CHECK(r.loads.front().layers == 7);
  CHECK(r.loads[5].layers == 8);
  const PipelineInput in = model.BuildPipelineInput(p);
  CHECK(in.stages[0].chunks[0].forward < in.stages[0].chunks[1].forward / 4);
  CHECK(in.stages[5].chunks[0].forward == in.stages[5].chunks[1].forward);
}

TEST_CASE("the simulated bubble of an unbalanced pipeline (hand arithmetic)", "[sim][layout]") {
  // pp=2, 1F1B, 4 micro-batches; stage 1 is three times slower (f 3 us, b 6 us against 1, 2).
  // Stage 1 starts after stage 0's first forward (1 us), then runs its 4 x 9 us back to back
  // (stage 0 always has the next forward ready), and stage 0's last backward (2 us) ends the
  // step: 1 + 36 + 2 = 39 us, of which stage 1 idles 3 us. A uniform-stage formula would say
  // (pp - 1)(f + b) = 9 us of bubble on the slow stage.
  PipelineInput in;
  in.schedule = Schedule::k1F1B;
  in.pp = 2;
  in.micro_batches = 4;
  in.stages.resize(2);
  in.stages[0].chunks = {ChunkCost{1000, 1000, 1000, 0}};
  in.stages[1].chunks = {ChunkCost{3000, 3000, 3000, 0}};
  const PipelineResult r = SimulatePipeline(in);
  CHECK(r.pipeline == 39000);
  CHECK(r.bubble == 3000);
  CHECK(r.critical_stage == 1);
}
