// Optimizer state in host memory (Megatron-LM --optimizer-cpu-offload): GPU bytes and the host
// link's time by hand (issue 17).
#include <catch2/catch.hpp>

#include "evaluate/step_model.h"
#include "plan/plan_rules.h"
#include "test_specs.h"

using namespace paraplan;

TEST_CASE("offloading optimizer state moves it to the host and costs the host link",
          "[cost][memory]") {
  const ModelSpec m = test::Gpt3_175B();
  Cluster c = test::DgxH100();
  c.gpu.host_link_GBps = 64;
  const StepModel model(m, c, 64);
  ParallelPlan p;
  p.tp = 8;
  p.pp = 8;
  p.dp = 1;
  p.global_batch = 16;
  p.recompute = Recompute::kFull;
  REQUIRE(PlanViolations(m, c, 64, p).empty());
  const StepResult base = model.Estimate(p);
  p.recipe.optimizer_offload = 0.75;
  const StepResult off = model.Estimate(p);
  REQUIRE(off.memory.size() == 8);
  // A middle stage: 12 layers of (12h^2 + 4h) / tp parameters.
  const double h = 12288, params = 12 * (12 * h * h + 4 * h) / 8;
  // (biases and norms aside: within 0.1%)
  CHECK(base.memory[3].optimizer_bytes == Approx(12 * params).epsilon(1e-3));
  CHECK(off.memory[3].optimizer_bytes == Approx(0.25 * base.memory[3].optimizer_bytes));
  CHECK(off.memory[3].weights_bytes == Approx(base.memory[3].weights_bytes));
  // The first stage (with the embedding) has the most parameters and sets the optimizer step:
  // a quarter of its Adam traffic on HBM plus 4 bytes per offloaded parameter at 64 GB/s down
  // (gradients) and again up (parameters), one after the other.
  const double first = params + 51200 * h / 8;
  const double hbm = 0.25 * first * 30 / 3350e9, link = 2 * 0.75 * first * 4 / 64e9;
  CHECK(off.time.optimizer_s == Approx(hbm + link).epsilon(0.02));
  CHECK(off.time.optimizer_s > base.time.optimizer_s);
  // With the host's DRAM bandwidth stated, the CPU's Adam between the two transfers: the GPU
  // step's 30 bytes per parameter less the bf16 weight copy (28 B), at 76.8 GB/s per GPU.
  c.gpu.host_memory_GBps = 76.8;
  const StepResult cpu = StepModel(m, c, 64).Estimate(p);
  CHECK(cpu.time.optimizer_s == Approx(hbm + link + 0.75 * first * 28 / 76.8e9).epsilon(0.02));
  // bf16 moments: 22 - 2 = 20 bytes on the CPU, 22 on the GPU.
  p.recipe.optimizer_moments = MomentDtype::kBf16;
  const StepResult bf16 = StepModel(m, c, 64).Estimate(p);
  const double hbm16 = 0.25 * first * 22 / 3350e9;
  CHECK(bf16.time.optimizer_s == Approx(hbm16 + link + 0.75 * first * 20 / 76.8e9).epsilon(0.02));
}

TEST_CASE("offload needs a stated host link", "[cost][memory]") {
  const ModelSpec m = test::Gpt3_175B();
  const Cluster c = test::DgxH100();  // host_link_GBps = 0: not stated
  ParallelPlan p;
  p.tp = 8;
  p.pp = 8;
  p.global_batch = 16;
  p.recipe.optimizer_offload = 0.5;
  const auto v = PlanViolations(m, c, 64, p);
  REQUIRE(v.size() == 1);
  CHECK(v[0].find("host_link_GBps") != std::string::npos);
}
