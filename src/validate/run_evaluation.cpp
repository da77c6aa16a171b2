#include "validate/run_evaluation.h"

#include <algorithm>
#include <exception>

#include "core/error.h"
#include "core/strings.h"
#include "core/units.h"
#include "cost/eval_pass.h"
#include "plan/knob_table.h"
#include "plan/plan_defaults.h"
#include "plan/plan_rules.h"
#include "search/search.h"
#include "validate/framework_conventions.h"
#include "validate/holdout.h"
#include "validate/metric_summary.h"

namespace paraplan {

namespace {

template <typename T>
T FirstOr(const Choice<T>& choice, T fallback) {
  return choice && !choice->empty() ? choice->front() : fallback;
}

template <typename T>
bool IsOpen(const Choice<T>& choice) {
  return !choice || choice->size() > 1;
}

template <typename T, typename V>
void AddIfOpen(std::vector<std::string>& out, Knob knob, const Choice<T>& choice, const V& value) {
  if (IsOpen(choice)) out.push_back(std::string(KnobName(knob)) + "=" + KnobValueText(value));
}

// The search over the open knobs; when nothing fits, the closest non-fitting plan; when no plan
// is valid at all, an error with the reason (the rules the stated plan breaks, or why the search
// found nothing).
StepResult ChoosePlan(const RunSpec& run, const RunEvaluationOptions& options, RunOutcome& out) {
  SearchOptions search_options;
  search_options.threads = options.search_threads;
  search_options.simulate_top = options.simulate_top;
  search_options.top_k = options.simulate_top;  // the spread over the searched values
  SearchResult found = SearchPlans(run.model, run.cluster, run.gpus, run.plan, search_options);
  if (!found.plans.empty()) {
    out.step_min_s = out.step_max_s = found.plans.front().step_time_s;
    for (const StepResult& r : found.plans) {
      out.step_min_s = std::min(out.step_min_s, r.step_time_s);
      out.step_max_s = std::max(out.step_max_s, r.step_time_s);
    }
    return found.plans.front();
  }
  if (!found.closest.empty()) {
    out.message = "no plan fits in memory: " + found.why_nothing_fits;
    return found.closest.front();
  }
  const std::vector<std::string> violations =
      PlanViolations(run.model, run.cluster, run.gpus, ResolveWithDefaults(run.plan, run.gpus));
  if (!violations.empty()) {
    throw InputError(run.where, "plan",
                     "the stated plan breaks the rules: " + Join(violations, "; "));
  }
  // Never a stand-in: the stated knobs with defaults obey the rules but the search over the open
  // ones found nothing, so no plan honours what the run states (issue 15).
  (void)out;
  throw InputError(
      run.where, "plan",
      "no plan honours the stated knobs" +
          (found.why_nothing_fits.empty() ? std::string() : ": " + found.why_nothing_fits) +
          " (paraplan does not score a different plan in its place)");
}

}  // namespace

ParallelPlan ResolveWithDefaults(const PlanConstraints& c, int64_t gpus) {
  ParallelPlan p;
  p.tp = FirstOr(c.tp, p.tp);
  p.pp = FirstOr(c.pp, p.pp);
  p.cp = FirstOr(c.cp, p.cp);
  const int64_t model_parallel = p.tp * p.pp * p.cp;
  p.dp = FirstOr(
      c.dp, model_parallel > 0 && gpus % model_parallel == 0 ? gpus / model_parallel : int64_t{1});
  p.ep = FirstOr(c.ep, p.ep);
  p.etp = FirstOr(c.etp, p.etp);
  p.vpp = FirstOr(c.vpp, p.vpp);
  p.micro_batch = FirstOr(c.micro_batch, p.micro_batch);
  p.global_batch = FirstOr(c.global_batch, p.micro_batch * p.dp);
  p.seq_len = FirstOr(c.seq_len, p.seq_len);
  p.recompute = FirstOr(c.recompute, p.recompute);
  p.sequence_parallel = FirstOr(c.sequence_parallel, DefaultSequenceParallel(p.tp));
  p.zero = FirstOr(c.zero, p.zero);
  p.precision = FirstOr(c.precision, p.precision);
  p.schedule = FirstOr(c.schedule, p.vpp > 1 ? Schedule::kInterleaved : p.schedule);
  p.moe_routing = FirstOr(c.moe_routing, p.moe_routing);
  p.moe_capacity_factor = FirstOr(c.moe_capacity_factor, p.moe_capacity_factor);
  p.moe_imbalance = FirstOr(c.moe_imbalance, p.moe_imbalance);
  p.dp_comm_dtype = FirstOr(c.dp_comm_dtype, p.dp_comm_dtype);
  p.dp_bucket_MB = FirstOr(c.dp_bucket_MB, p.dp_bucket_MB);
  p.placement = FirstOr(c.placement, p.placement);
  if (c.pp_layers) p.pp_layers = *c.pp_layers;
  if (c.layout) p.layout = *c.layout;
  if (c.recipe) p.recipe = *c.recipe;
  if (c.kernels) p.kernels = *c.kernels;
  p.overlap_grad_reduce = FirstOr(c.overlap_grad_reduce, p.overlap_grad_reduce);
  p.overlap_param_gather = FirstOr(c.overlap_param_gather, p.overlap_param_gather);
  p.overlap_tp_comm = FirstOr(c.overlap_tp_comm, p.overlap_tp_comm);
  p.overlap_ep_comm = FirstOr(c.overlap_ep_comm, p.overlap_ep_comm);
  p.overlap_pp_comm = FirstOr(c.overlap_pp_comm, p.overlap_pp_comm);
  p.zero3_keep_gathered = FirstOr(c.zero3_keep_gathered, p.zero3_keep_gathered);
  p.grad_reduce_in_fp32 = FirstOr(c.grad_reduce_in_fp32, p.grad_reduce_in_fp32);
  return p;
}

std::vector<std::string> SearchedKnobs(const PlanConstraints& c, const ParallelPlan& p) {
  std::vector<std::string> out;
  AddIfOpen(out, Knob::kTp, c.tp, p.tp);
  AddIfOpen(out, Knob::kPp, c.pp, p.pp);
  AddIfOpen(out, Knob::kDp, c.dp, p.dp);
  AddIfOpen(out, Knob::kCp, c.cp, p.cp);
  AddIfOpen(out, Knob::kEp, c.ep, p.ep);
  AddIfOpen(out, Knob::kVpp, c.vpp, p.vpp);
  AddIfOpen(out, Knob::kMicroBatch, c.micro_batch, p.micro_batch);
  AddIfOpen(out, Knob::kRecompute, c.recompute, p.recompute);
  AddIfOpen(out, Knob::kSequenceParallel, c.sequence_parallel, p.sequence_parallel);
  AddIfOpen(out, Knob::kZero, c.zero, p.zero);
  if (p.tp > 1) AddIfOpen(out, Knob::kOverlapTpComm, c.overlap_tp_comm, p.overlap_tp_comm);
  if (p.ep > 1) AddIfOpen(out, Knob::kOverlapEpComm, c.overlap_ep_comm, p.overlap_ep_comm);
  AddIfOpen(out, Knob::kSchedule, c.schedule, p.schedule);
  return out;
}

std::map<std::string, double> PredictedMetrics(const StepResult& result) {
  return {{"step_time_s", result.step_time_s},
          {"tokens_per_s_per_gpu", result.tokens_per_s_per_gpu},
          {"mfu", result.mfu},
          {"memory_GiB", BytesToGiB(result.peak_memory_bytes)}};
}

double EvalPassSeconds(const RunSpec& run, const StepResult& result) {
  if (run.eval_sequences_per_step <= 0) return 0;
  std::vector<double> forward;
  forward.reserve(result.loads.size());
  for (const StageLoad& load : result.loads) forward.push_back(load.forward_s);
  const ParallelPlan& p = result.plan;
  return ForwardOnlyPipelineSeconds(
      forward, p.vpp, EvalMicroBatches(run.eval_sequences_per_step, p.dp, p.micro_batch));
}

double TimedStepSeconds(const RunSpec& run, const StepResult& result) {
  return result.step_time_s + EvalPassSeconds(run, result);
}

RunOutcome EvaluateRun(const RunSpec& run, const RunEvaluationOptions& options) {
  RunOutcome out;
  out.id = run.id;
  out.source = run.source;
  out.model_name = run.model.name;
  out.gpu_name = run.cluster.gpu.name;
  out.gpu_family = GpuModel(run.cluster.gpu.name);
  out.gpus = run.gpus;
  out.cluster = run.cluster.name;
  out.gpu_memory_GiB = run.cluster.gpu.memory_GiB;
  out.seq_len = run.plan.seq_len && run.plan.seq_len->size() == 1 ? run.plan.seq_len->front()
                                                                  : run.model.seq_len;
  if (run.plan.global_batch && run.plan.global_batch->size() == 1) {
    out.global_batch_tokens = run.plan.global_batch->front() * out.seq_len;
  }
  out.measured = run.measured;
  out.evaluation_only = run.evaluation_only;
  if (!run.error.empty()) {
    out.status = RunStatus::kError;
    out.message = run.error;
    return out;
  }
  try {
    RunSpec framework_run = run;
    framework_run.plan =
        ApplyFrameworkConventions(ProfileOfRun(run), run.model, run.plan, &out.conventions);
    StepResult chosen = ChoosePlan(framework_run, options, out);
    out.fits = chosen.fits;
    out.searched = SearchedKnobs(framework_run.plan, chosen.plan);
    if (out.searched.empty()) out.step_min_s = out.step_max_s = 0;
    out.predicted = PredictedMetrics(chosen);
    out.eval_pass_s = EvalPassSeconds(run, chosen);
    if (out.eval_pass_s > 0) {
      // Throughput and MFU over the timed interval, as the measurement reports them.
      const double train_s = chosen.step_time_s;
      const double timed_s = train_s + out.eval_pass_s;
      out.predicted["step_time_s"] = timed_s;
      out.predicted["tokens_per_s_per_gpu"] *= train_s / timed_s;
      out.predicted["mfu"] *= train_s / timed_s;
      if (!out.searched.empty()) {
        out.step_min_s += out.eval_pass_s;
        out.step_max_s += out.eval_pass_s;
      }
    }
    for (const auto& [metric, measured] : run.measured) {
      auto it = out.predicted.find(metric);
      if (it != out.predicted.end() && measured != 0) {
        out.error_pct[metric] = ErrorPct(it->second, measured);
      }
    }
    out.result = std::move(chosen);
  } catch (const std::exception& e) {
    out.status = RunStatus::kError;
    out.message = e.what();
    out.predicted.clear();
    out.error_pct.clear();
  }
  return out;
}

}  // namespace paraplan
