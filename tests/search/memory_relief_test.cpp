// When nothing fits with the default memory recipe, `plan` searches the optimizer-state recipes in
// order (search/memory_relief.h) and reports the first under which plans fit.
#include "search/memory_relief.h"

#include <catch2/catch.hpp>

#include "cli/common_inputs.h"
#include "config/efficiency_loader.h"
#include "report/search_notes.h"
#include "search/framework_search.h"

namespace paraplan {
namespace {

using F = Framework;

LoadedInputs Inputs(const char* model, const char* cluster, int64_t gpus, const char* plan) {
  InputOptions o;
  o.model = model;
  o.cluster = cluster;
  o.gpus = gpus;
  o.plan = plan;
  LoadedInputs in = LoadInputs(o);
  ApplyDefaultEfficiency(in.cluster);
  return in;
}

SearchOptions ReliefOptions() {
  SearchOptions options;
  options.threads = 2;
  options.top_k = 5;
  options.simulate_top = 8;
  return options;
}

TEST_CASE("the memory-relief ladder: bf16 moments, then the optimizer in host memory",
          "[search][memory]") {
  const std::vector<MemoryRelief> ladder = MemoryReliefLadder(F::kAny);
  REQUIRE(ladder.size() == 2);
  CHECK(ladder[0].recipe.optimizer_moments == MomentDtype::kBf16);
  CHECK(ladder[0].recipe.optimizer_offload == 0);
  CHECK(ladder[1].recipe.optimizer_moments == MomentDtype::kFp32);
  CHECK(ladder[1].recipe.optimizer_offload == 1);
  CHECK(MemoryReliefLadder(F::kMegatron).size() == 2);
  CHECK(MemoryReliefLadder(F::kTorchtitan).empty());
  CHECK(MemoryReliefLadder(F::kDeepSpeed).empty());
}

TEST_CASE("nothing fits by default: the first rung that fits is searched and named",
          "[search][memory]") {
  SECTION("Llama-3 8B on one H200: 16 + 32 + 96 B/param > 141 GiB; bf16 moments fit") {
    const LoadedInputs in = Inputs("llama3-8b", "dgx-h200", 1, "global_batch=8");
    const SearchResult r =
        SearchPlansFor(F::kAny, in.model, in.cluster, 1, in.plan, ReliefOptions());
    REQUIRE_FALSE(r.plans.empty());
    CHECK(r.memory_relief == "optimizer_moments=bf16");
    CHECK_THAT(MemoryReliefText(r), Catch::Contains("--exp-avg-dtype bf16"));
    for (const StepResult& s : r.plans) {
      CHECK(s.fits);
      CHECK(s.plan.recipe.optimizer_moments == MomentDtype::kBf16);
      CHECK(s.plan.recipe.optimizer_offload == 0);
    }
  }
  SECTION("Llama-3 70B on 8 H100: only the optimizer in host memory fits") {
    const LoadedInputs in = Inputs("llama3-70b", "dgx-h100", 8, "global_batch=64");
    const SearchResult r =
        SearchPlansFor(F::kAny, in.model, in.cluster, 8, in.plan, ReliefOptions());
    REQUIRE_FALSE(r.plans.empty());
    CHECK(r.memory_relief == "optimizer_offload=1");
    for (const StepResult& s : r.plans) {
      CHECK(s.fits);
      CHECK(s.plan.recipe.optimizer_offload == 1);
    }
    // The same under --framework megatron, whose flags set both recipes.
    const SearchResult m =
        SearchPlansFor(F::kMegatron, in.model, in.cluster, 8, in.plan, ReliefOptions());
    REQUIRE_FALSE(m.plans.empty());
    CHECK(m.memory_relief == "optimizer_offload=1");
  }
}

TEST_CASE("a recipe the user fixed, a framework without the flags, or a fit: no relief search",
          "[search][memory]") {
  SECTION("fixed recipe: nothing fits, and the report does not say the recipes were tried") {
    const LoadedInputs in =
        Inputs("llama3-70b", "dgx-h100", 8, "global_batch=64,optimizer_moments=fp32");
    REQUIRE(in.plan.recipe.has_value());
    const SearchResult r =
        SearchPlansFor(F::kAny, in.model, in.cluster, 8, in.plan, ReliefOptions());
    CHECK(r.plans.empty());
    CHECK(r.memory_relief.empty());
    CHECK_THAT(r.why_nothing_fits, !Catch::Contains("Searched again with the memory recipes"));
  }
  SECTION("torchtitan: its offload moves parameters too; not searched") {
    const LoadedInputs in = Inputs("llama3-70b", "dgx-h100", 8, "global_batch=64");
    const SearchResult r =
        SearchPlansFor(F::kTorchtitan, in.model, in.cluster, 8, in.plan, ReliefOptions());
    CHECK(r.plans.empty());
    CHECK(r.memory_relief.empty());
  }
  SECTION("plans fit with the default recipe: it is kept") {
    const LoadedInputs in = Inputs("llama3-8b", "dgx-h100", 8, "global_batch=64");
    const SearchResult r =
        SearchPlansFor(F::kAny, in.model, in.cluster, 8, in.plan, ReliefOptions());
    REQUIRE_FALSE(r.plans.empty());
    CHECK(r.memory_relief.empty());
    for (const StepResult& s : r.plans) CHECK(s.plan.recipe.IsDefault());
  }
  SECTION("nothing fits even with the ladder: the explanation says it was tried") {
    const LoadedInputs in = Inputs("llama3.1-405b", "dgx-h100", 8, "global_batch=8");
    const SearchResult r =
        SearchPlansFor(F::kAny, in.model, in.cluster, 8, in.plan, ReliefOptions());
    CHECK(r.plans.empty());
    CHECK_THAT(r.why_nothing_fits,
               Catch::Contains("(optimizer_moments=bf16, optimizer_offload=1): nothing fits"));
  }
}

}  // namespace
}  // namespace paraplan
