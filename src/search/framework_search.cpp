#include "search/framework_search.h"

#include "core/error.h"
#include "evaluate/step_model.h"
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

SearchResult SearchPlansFor(LaunchFramework framework, const ModelSpec& model,
                            const Cluster& cluster, int64_t gpus,
                            const PlanConstraints& constraints, const SearchOptions& options) {
  if (framework == LaunchFramework::kAny) {
    return SearchPlans(model, cluster, gpus, constraints, options);
  }
  const std::vector<std::string> model_reasons = FrameworkModelViolations(framework, model);
  if (!model_reasons.empty()) {
    throw InputError(std::string("--framework ") + ToString(framework) + ": " +
                     model_reasons.front());
  }
  const PlanSpace space(model, gpus, RestrictToFramework(framework, constraints));
  const StepModel step_model(model, cluster, gpus);
  const StepModelEvaluator base(step_model);
  const FrameworkEvaluator evaluator(base, framework, model);
  return SearchSpace(space, evaluator, model.seq_len, options);
}

}  // namespace paraplan
