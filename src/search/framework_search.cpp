#include "search/framework_search.h"

#include "core/error.h"
#include "evaluate/step_model.h"
#include "search/memory_relief.h"
#include "search/plan_space.h"
#include "search/search_core.h"
#include "search/step_model_evaluator.h"

namespace paraplan {

std::vector<std::string> FrameworkEvaluator::Violations(const ParallelPlan& plan,
                                                        bool first_only) const {
  std::vector<std::string> out = inner_->Violations(plan, first_only);
  if (first_only && !out.empty()) return out;
  for (std::string& v : FrameworkViolations(framework_, model_, plan, first_only)) {
    out.push_back(std::string(DisplayName(framework_)) + ": " + v);
  }
  return out;
}

namespace {

SearchResult SearchOnce(Framework framework, const ModelSpec& model, const Cluster& cluster,
                        int64_t gpus, const PlanConstraints& constraints,
                        const SearchOptions& options) {
  if (framework == Framework::kAny) {
    return SearchPlans(model, cluster, gpus, constraints, options);
  }
  const PlanSpace space(model, gpus, RestrictToFramework(framework, constraints));
  const StepModel step_model(model, cluster, gpus);
  const StepModelEvaluator base(step_model);
  const FrameworkEvaluator evaluator(base, framework, model);
  return SearchSpace(space, evaluator, model.seq_len, options);
}

}  // namespace

SearchResult SearchPlansFor(Framework framework, const ModelSpec& model, const Cluster& cluster,
                            int64_t gpus, const PlanConstraints& constraints,
                            const SearchOptions& options) {
  if (framework != Framework::kAny) {
    const std::vector<std::string> model_reasons = FrameworkModelViolations(framework, model);
    if (!model_reasons.empty()) {
      throw InputError(std::string("--framework ") + ToString(framework) + ": " +
                       model_reasons.front());
    }
  }
  SearchResult result = SearchOnce(framework, model, cluster, gpus, constraints, options);
  // Memory is tight: nothing fits although some plan obeys the rules. A recipe the user fixed
  // stays fixed.
  if (!result.plans.empty() || result.feasible > 0 || constraints.recipe ||
      result.closest.empty()) {
    return result;
  }
  double seconds = result.seconds;
  std::string tried;
  for (const MemoryRelief& rung : MemoryReliefLadder(framework)) {
    PlanConstraints relieved = constraints;
    relieved.recipe = rung.recipe;
    SearchResult next = SearchOnce(framework, model, cluster, gpus, relieved, options);
    seconds += next.seconds;
    if (!next.plans.empty()) {
      next.memory_relief = rung.knobs;
      next.seconds = seconds;
      return next;
    }
    // A rung no plan can take (offload without a host link breaks a plan rule) was not tried.
    if (!next.closest.empty()) tried += (tried.empty() ? "" : ", ") + rung.knobs;
  }
  if (!tried.empty()) {
    result.why_nothing_fits +=
        "Searched again with the memory recipes that shrink the optimizer "
        "state (" +
        tried + "): nothing fits with them either.\n";
  }
  result.seconds = seconds;
  return result;
}

}  // namespace paraplan
