#include "report/relief_advice.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "core/strings.h"

using namespace paraplan;

namespace {

bool HasItem(const std::vector<std::string>& items, const std::string& text) {
  return std::any_of(items.begin(), items.end(),
                     [&](const std::string& item) { return item.find(text) != std::string::npos; });
}

}  // namespace

TEST_CASE("Memory relief suggests only knobs the plan does not have yet", "[report]") {
  ParallelPlan plan;
  plan.tp = 8;
  plan.micro_batch = 4;
  plan.recompute = Recompute::kNone;
  auto items = MemoryRelief(plan, "activations");
  CHECK(HasItem(items, "recompute=selective or full"));
  CHECK(HasItem(items, "a smaller micro_batch"));
  CHECK(HasItem(items, "sequence_parallel=true"));

  plan.recompute = Recompute::kFull;
  plan.micro_batch = 1;
  plan.sequence_parallel = true;
  items = MemoryRelief(plan, "activations");
  CHECK_FALSE(HasItem(items, "recompute="));
  CHECK_FALSE(HasItem(items, "micro_batch"));
  CHECK_FALSE(HasItem(items, "sequence_parallel"));
  CHECK(HasItem(items, "more tp/cp/pp"));  // the last resort is always there

  plan.zero = 3;
  CHECK_FALSE(HasItem(MemoryRelief(plan, "weights"), "zero="));
  CHECK_FALSE(HasItem(MemoryRelief(plan, "gradients"), "zero="));
  plan.zero = 1;
  CHECK(HasItem(MemoryRelief(plan, "weights"), "zero=3"));
  CHECK(HasItem(MemoryRelief(plan, "gradients"), "zero=2"));
  CHECK_FALSE(HasItem(MemoryRelief(plan, "optimizer state"), "zero=1"));
  CHECK_FALSE(HasItem(MemoryRelief(plan, "other"), "smaller micro_batch"));
}

TEST_CASE("Memory relief names the memory recipe knobs the plan does not use", "[report]") {
  ParallelPlan plan;
  plan.recompute = Recompute::kSelective;
  auto items = MemoryRelief(plan, "activations");
  CHECK(HasItem(items, "recompute_modules="));
  CHECK(HasItem(items, "fp8_act_cache=true"));
  plan.recipe.recompute_modules = static_cast<uint32_t>(RecomputeModule::kLayernorm);
  plan.recipe.fp8_act_cache = true;
  items = MemoryRelief(plan, "activations");
  CHECK_FALSE(HasItem(items, "recompute_modules="));
  CHECK_FALSE(HasItem(items, "fp8_act_cache"));
  CHECK(HasItem(MemoryRelief(plan, "optimizer state"), "optimizer_moments=bf16"));
  plan.recipe.optimizer_moments = MomentDtype::kBf16;
  plan.recipe.optimizer_offload = 1;
  CHECK_FALSE(HasItem(MemoryRelief(plan, "optimizer state"), "optimizer_"));
}

TEST_CASE("Time relief follows the plan's recompute, precision, schedule and overlap", "[report]") {
  ParallelPlan plan;
  plan.recompute = Recompute::kFull;
  plan.precision = Precision::kBf16;
  auto items = TimeRelief(plan, "compute");
  CHECK(HasItem(items, "recompute=selective or none"));
  CHECK(HasItem(items, "precision=fp8"));
  plan.recompute = Recompute::kNone;
  plan.precision = Precision::kFp8;
  items = TimeRelief(plan, "compute");
  CHECK_FALSE(HasItem(items, "recompute="));
  CHECK_FALSE(HasItem(items, "precision="));

  plan.schedule = Schedule::kZeroBubble;
  CHECK_FALSE(HasItem(TimeRelief(plan, "pipeline bubble"), "schedule=zero-bubble"));
  plan.schedule = Schedule::k1F1B;
  CHECK(HasItem(TimeRelief(plan, "pipeline bubble"), "schedule=zero-bubble"));

  plan.overlap_tp_comm = true;
  plan.sequence_parallel = true;
  items = TimeRelief(plan, "TP communication");
  CHECK_FALSE(HasItem(items, "overlap_tp_comm"));
  CHECK_FALSE(HasItem(items, "sequence_parallel"));
  CHECK(HasItem(items, "NVLink"));

  plan.overlap_grad_reduce = false;
  plan.dp_comm_dtype = CommDtype::kBf16;
  items = TimeRelief(plan, "DP communication (exposed)");
  CHECK(HasItem(items, "overlap_grad_reduce=true"));
  CHECK_FALSE(HasItem(items, "dp_comm_dtype"));
  CHECK(Join(std::vector<std::string>{"a", "b"}) == "a, b");
}

namespace paraplan {
namespace {

TEST_CASE("Time relief for a plan that does not fit asks for no more memory", "[report]") {
  ParallelPlan plan;
  plan.recompute = Recompute::kFull;
  const auto fits = TimeRelief(plan, "compute", true);
  const auto over = TimeRelief(plan, "compute", false);
  auto has = [](const std::vector<std::string>& items, const std::string& text) {
    for (const std::string& i : items) {
      if (i.find(text) != std::string::npos) return true;
    }
    return false;
  };
  CHECK(has(fits, "a larger micro_batch"));
  CHECK(has(fits, "recompute=selective or none"));
  CHECK_FALSE(has(over, "micro_batch"));
  CHECK_FALSE(has(over, "recompute="));
  CHECK(has(over, "more GPUs"));
}

}  // namespace
}  // namespace paraplan

TEST_CASE("Memory relief: the EMA to host memory, the probabilities off the expert output",
          "[report]") {
  ParallelPlan plan;
  CHECK_FALSE(HasItem(MemoryRelief(plan, "optimizer state"), "ema="));
  CHECK_FALSE(HasItem(MemoryRelief(plan, "activations"), "moe_probs="));
  plan.recipe.ema = EmaPlace::kGpu;
  CHECK(HasItem(MemoryRelief(plan, "optimizer state"), "ema=cpu"));
  plan.recipe.ema = EmaPlace::kCpu;
  CHECK_FALSE(HasItem(MemoryRelief(plan, "optimizer state"), "ema="));
  plan.recipe.moe_probs = MoeProbs::kOutput;
  CHECK(HasItem(MemoryRelief(plan, "activations"), "moe_probs=activation"));
}

TEST_CASE("Memory relief at the peak stage leads with ema=cpu when the EMA is on the GPU",
          "[report]") {
  ParallelPlan plan;
  StageMemory peak;
  peak.ema_bytes = 1.5 * 1024 * 1024 * 1024;
  CHECK_FALSE(HasItem(MemoryReliefAt(plan, "activations", peak), "ema="));
  plan.recipe.ema = EmaPlace::kGpu;
  const auto items = MemoryReliefAt(plan, "activations", peak);
  REQUIRE_FALSE(items.empty());
  CHECK(items[0] == "ema=cpu (frees the EMA's 1.50 GiB)");
  CHECK(HasItem(items, "more tp/cp/pp"));  // the part's own advice follows
  // For the optimizer state the part's own list already names it, once.
  const auto opt = MemoryReliefAt(plan, "optimizer state", peak);
  CHECK(std::count_if(opt.begin(), opt.end(), [](const std::string& s) {
          return s.find("ema=cpu") != std::string::npos;
        }) == 1);
}
