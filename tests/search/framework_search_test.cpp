// A framework-limited search (search/framework_search.h) returns only plans the framework runs,
// never a faster one than the unrestricted search.
#include "search/framework_search.h"

#include <catch2/catch.hpp>

#include "cli/common_inputs.h"
#include "config/efficiency_loader.h"

namespace paraplan {
namespace {

using F = Framework;

TEST_CASE("a framework-limited search returns only plans the framework runs", "[plan][framework]") {
  InputOptions o;
  o.model = "llama3-8b";
  o.cluster = "dgx-h100";
  o.gpus = 32;
  o.plan = "global_batch=128";
  LoadedInputs in = LoadInputs(o);
  ApplyDefaultEfficiency(in.cluster);
  SearchOptions options;
  options.threads = 2;
  options.top_k = 10;
  options.simulate_top = 16;
  const SearchResult any = SearchPlansFor(F::kAny, in.model, in.cluster, 32, in.plan, options);
  REQUIRE_FALSE(any.plans.empty());
  for (F f : {F::kMegatron, F::kTorchtitan, F::kDeepSpeed}) {
    INFO(ToString(f));
    const SearchResult r = SearchPlansFor(f, in.model, in.cluster, 32, in.plan, options);
    REQUIRE_FALSE(r.plans.empty());
    for (const StepResult& s : r.plans) CHECK(FrameworkViolations(f, &in.model, s.plan).empty());
    for (const StepResult& s : r.pareto) CHECK(FrameworkViolations(f, &in.model, s.plan).empty());
    // A subset of the plans can only be as fast as the whole space's best.
    CHECK(r.plans.front().step_time_s >= any.plans.front().step_time_s * (1 - 1e-9));
  }
}

}  // namespace
}  // namespace paraplan
