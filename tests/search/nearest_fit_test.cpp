#include "search/nearest_fit.h"

#include <catch2/catch.hpp>

#include "search/fake_evaluator.h"

namespace paraplan {
namespace {

TEST_CASE("FindNearestFit changes the fewest knobs, then takes the fastest", "[search]") {
  const ModelSpec model = testing::FakeModel();
  // tp=1 pp=1 dp=8, no recompute, zero 0: weights 16, grads 16, optimizer 96, activations 4,
  // other 1 = 133 GiB against 40: no single change fits (zero=1 alone leaves 49 GiB).
  const testing::FakeEvaluator evaluator(model, 40);
  ParallelPlan from;
  from.dp = 8;
  from.global_batch = 16;
  REQUIRE(evaluator.PeakMemoryBytes(from) > evaluator.MemoryCapacityBytes());
  const PlanSpace space(model, 8, NearestFitConstraints(from));
  const auto fit = FindNearestFit(space, evaluator, from);
  REQUIRE(fit);
  CHECK(evaluator.PeakMemoryBytes(fit->plan) <= evaluator.MemoryCapacityBytes());
  CHECK(evaluator.Violations(fit->plan, false).empty());
  CHECK(fit->distance == static_cast<int>(fit->changes.size()));
  CHECK(fit->distance > 1);
  CHECK(fit->plan.global_batch == 16);
  // Brute force: nothing nearer fits, nothing as near that fits is faster.
  const double fit_step = evaluator.EstimateStepSeconds(fit->plan);
  for (PlanCursor c(space, 0); !c.AtEnd(); c.Next()) {
    const auto d = static_cast<int>(KnobChanges(from, c.plan()).size());
    if (d > fit->distance || d == 0 || !evaluator.Violations(c.plan(), true).empty()) continue;
    if (evaluator.PeakMemoryBytes(c.plan()) > evaluator.MemoryCapacityBytes()) continue;
    CHECK(d == fit->distance);
    CHECK(evaluator.EstimateStepSeconds(c.plan()) >= fit_step);
  }
}

TEST_CASE("FindNearestFit says when nothing fits", "[search]") {
  const ModelSpec model = testing::FakeModel();
  const testing::FakeEvaluator evaluator(model, 1);
  ParallelPlan from;
  from.dp = 8;
  from.global_batch = 16;
  const PlanSpace space(model, 8, NearestFitConstraints(from));
  CHECK_FALSE(FindNearestFit(space, evaluator, from));
}

TEST_CASE("NearestFitConstraints keeps the kernels and the recipe and (if asked) the split",
          "[search]") {
  ParallelPlan from;
  from.pp = 2;
  from.global_batch = 16;
  from.kernels.fusion = Fusion::kCompile;
  from.recipe.fp8_act_cache = true;
  from.pp_layers = {3, 5};
  from.layout.account_loss = true;
  from.layout.mtp_stage = 0;
  REQUIRE(FixesLayerSplit(from));
  PlanConstraints c = NearestFitConstraints(from);
  REQUIRE(c.kernels);
  CHECK(c.kernels->fusion == Fusion::kCompile);
  REQUIRE(c.recipe);
  CHECK(c.recipe->fp8_act_cache);
  CHECK(c.pp_layers == std::vector<int64_t>{3, 5});
  REQUIRE(c.layout);
  CHECK(c.layout->mtp_stage == 0);
  c = NearestFitConstraints(from, false);  // the balancer splits; the accounting flag stays
  CHECK_FALSE(c.pp_layers);
  REQUIRE(c.layout);
  CHECK(c.layout->mtp_stage == -1);
  CHECK(c.layout->account_loss);
  ParallelPlan to = from;
  to.pp_layers.clear();
  to.layout.mtp_stage = -1;
  CHECK_FALSE(FixesLayerSplit(to));
  CHECK(KnobChanges(from, to) == std::vector<std::string>{"layer split: as given -> balanced"});
}

TEST_CASE("KnobChanges names each change", "[search]") {
  ParallelPlan a, b;
  b.zero = 1;
  b.recompute = Recompute::kFull;
  CHECK(KnobChanges(a, b) == std::vector<std::string>{"recompute: none -> full", "zero: 0 -> 1"});
}

}  // namespace
}  // namespace paraplan
