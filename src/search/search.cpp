#include "search/search.h"

#include "evaluate/step_model.h"
#include "search/plan_space.h"
#include "search/search_core.h"
#include "search/step_model_evaluator.h"

namespace paraplan {

SearchResult SearchPlans(const ModelSpec& model, const Cluster& cluster, int64_t gpus,
                         const PlanConstraints& constraints, const SearchOptions& options) {
  const PlanSpace space(model, gpus, constraints);
  const StepModel step_model(model, cluster, gpus);
  const StepModelEvaluator evaluator(step_model);
  return SearchSpace(space, evaluator, model.seq_len, options);
}

}  // namespace paraplan
