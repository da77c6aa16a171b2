// Evaluating one published run: fix the knobs the source stated, search the rest, and compare the
// chosen plan's prediction with every measured metric. A published plan predicted not to fit is
// reported (fits = false) and still compared; a run that cannot be evaluated gets an error status.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/runs_file.h"
#include "cost/step_result.h"
#include "plan/parallel_plan.h"
#include "plan/plan_constraints.h"

namespace paraplan {

enum class RunStatus { kOk, kError };

// How each run's search is bounded (validation runs many runs; each search stays small).
struct RunEvaluationOptions {
  int64_t simulate_top = 4;  // best estimates re-run in the event simulator
  int search_threads = 1;    // threads per run's search (runs themselves run in parallel)
};

struct RunOutcome {
  std::string id;
  std::string source;
  std::string model_name;
  std::string gpu_name;
  std::string gpu_family;  // GpuModel(gpu_name): the efficiency key
  int64_t gpus = 0;
  // What `validate`'s ranking groups the run's job by (validate/plan_ranking.h): the cluster as
  // loaded (its name; with gpu_name and the GPU's memory, so an override makes another cluster),
  // the sequence length (the plan's when stated, else the model's) and the stated global batch in
  // tokens (0: the run leaves the batch open).
  std::string cluster;
  double gpu_memory_GiB = 0;
  int64_t seq_len = 0;
  int64_t global_batch_tokens = 0;
  RunStatus status = RunStatus::kOk;
  std::string message;  // why the run is an error, or why no plan fits
  bool fits = false;
  std::optional<StepResult> result;   // the chosen plan's prediction (status ok)
  std::vector<std::string> searched;  // "knob=value" for each knob the source left open
  // The spread of the predicted step time over the best plans the search found for the knobs
  // neither the run nor its framework's defaults fix (0 when nothing was searched).
  double step_min_s = 0, step_max_s = 0;
  std::vector<std::string> conventions;  // "knob=value (why)": read as the framework runs it
  std::map<std::string, double> measured;
  std::map<std::string, double> predicted;  // all kValidationMetrics (status ok)
  std::map<std::string, double> error_pct;  // the measured ones
  bool held_out = false;                    // set by the caller's held-out split
  bool evaluation_only = false;             // RunSpec::evaluation_only: never fitted
  // Seconds of the forward-only evaluation pass the run's timed step includes
  // (RunSpec::eval_sequences_per_step; 0: none), added to the predicted step time.
  double eval_pass_s = 0;
};

// The plan when every open knob takes its first allowed value or the ParallelPlan default
// (dp = gpus / (tp·cp·pp) when open). Used when the search finds no valid plan at all.
ParallelPlan ResolveWithDefaults(const PlanConstraints& constraints, int64_t gpus);

// "knob=value" for the knobs `constraints` leaves open or restricted to several values.
std::vector<std::string> SearchedKnobs(const PlanConstraints& constraints,
                                       const ParallelPlan& chosen);

// The four metrics of a prediction (step_time_s, tokens_per_s_per_gpu, mfu, memory_GiB).
std::map<std::string, double> PredictedMetrics(const StepResult& result);

// The forward-only evaluation pass inside the run's timed step for the plan `result` chose: its
// eval_sequences_per_step over the plan's data-parallel replicas in micro-batches of the plan's
// size, through the plan's pipeline stages (cost/eval_pass.h); 0 when the run states none.
double EvalPassSeconds(const RunSpec& run, const StepResult& result);

// The step the run's measurement times: the training step plus EvalPassSeconds.
double TimedStepSeconds(const RunSpec& run, const StepResult& result);

// Evaluates one run (never throws for a bad run: the error goes into the outcome).
RunOutcome EvaluateRun(const RunSpec& run, const RunEvaluationOptions& options);

}  // namespace paraplan
