// StepModel: the cost model for one (model, cluster, GPU count). Construct once — it
// precomputes everything that does not depend on the plan — then ask it about many plans.
// Estimate() is the search's inner loop: about 1 µs, no I/O, thread-safe (const).
#pragma once

#include <memory>
#include <vector>

#include "cost/step_result.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/parallel_plan.h"
#include "sim/pipeline_input.h"

namespace paraplan {

struct PlanEvaluation;

class StepModel {
 public:
  StepModel(ModelSpec model, Cluster cluster, int64_t gpus);
  ~StepModel();
  StepModel(StepModel&&) noexcept;
  StepModel& operator=(StepModel&&) noexcept;

  const ModelSpec& model() const;
  const Cluster& cluster() const;
  int64_t gpus() const;

  // Peak memory over the stages (bytes); the search prunes with it before costing time.
  double PeakMemoryBytes(const ParallelPlan& plan) const;

  // The search's fast path: analytical step time only (seconds), no breakdown.
  double EstimateStepSeconds(const ParallelPlan& plan) const;

  // Analytical (closed-form) estimate. The plan must obey PlanViolations().
  StepResult Estimate(const ParallelPlan& plan) const;

  // Event-driven simulation of the same plan (src/sim); timeline filled when asked for.
  StepResult Simulate(const ParallelPlan& plan,
                      std::vector<TimelineEvent>* timeline = nullptr) const;

  // Simulate's step_time_s, with the plan and the stage loads, and nothing else (no breakdown,
  // memory, critical path, collectives or notes): what a fit of the efficiencies reads
  // (calib/efficiency_fit.cpp), the same numbers as Simulate's.
  StepResult SimulateStepTime(const ParallelPlan& plan) const;

  // The simulator's input for the plan (per-stage, per-chunk costs in nanoseconds).
  PipelineInput BuildPipelineInput(const ParallelPlan& plan) const;

 private:
  PipelineInput PipelineInputOf(const ParallelPlan& plan, const PlanEvaluation& e) const;
  double SimulatedOverheadSeconds(const PlanEvaluation& e) const;

  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace paraplan
