// The search over uneven interleaved layouts returns the plan an exhaustive enumeration finds
// (issue 15): every plan of a small space simulated, against SearchPlans simulating them all.
#include <catch2/catch.hpp>

#include "../cost/test_specs.h"
#include "config/resolve.h"
#include "evaluate/step_model.h"
#include "plan/plan_rules.h"
#include "search/plan_space.h"
#include "search/search.h"

using namespace paraplan;

TEST_CASE("search with layouts matches exhaustive enumeration on a small space",
          "[search][layout]") {
  ModelSpec m = test::Llama3_70B();
  m.layers = 10;  // no pp*vpp > 2 divides it: every interleaved plan has an uneven layout
  const Cluster c = test::DgxH100();
  const int64_t gpus = 8;
  const PlanConstraints constraints = ParsePlanString(
      "tp=2,schedule=interleaved|1f1b,global_batch=16,micro_batch=1,recompute=none,zero=1");
  const PlanSpace space(m, gpus, constraints);
  REQUIRE(space.size() > 0);
  const StepModel model(m, c, gpus);
  double best = 0;
  int64_t best_vpp = 0, uneven = 0;
  for (int64_t i = 0; i < space.size(); ++i) {
    const ParallelPlan p = space.At(i);
    if (!PlanViolations(m, c, gpus, p).empty()) continue;
    const StepResult r = model.Simulate(p);
    if (!r.fits) continue;
    if (p.vpp > 1) ++uneven;
    if (best == 0 || r.step_time_s < best) {
      best = r.step_time_s;
      best_vpp = p.vpp;
    }
  }
  CHECK(uneven > 0);
  SearchOptions options;
  options.threads = 2;
  options.simulate_top = space.size();
  options.top_k = 1;
  const SearchResult found = SearchPlans(m, c, gpus, constraints, options);
  REQUIRE_FALSE(found.plans.empty());
  CHECK(found.plans.front().step_time_s == best);
  CHECK(found.plans.front().plan.vpp == best_vpp);
}
