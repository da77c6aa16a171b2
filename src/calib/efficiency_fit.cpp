#include "calib/efficiency_fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <set>

#include "core/error.h"
#include "core/thread_pool.h"
#include "cost/compute_cost.h"
#include "evaluate/step_model.h"
#include "hardware/gpu_family.h"
#include "hardware/measured_efficiency.h"
#include "validate/holdout.h"
#include "validate/run_evaluation.h"
#include "validate/validation_json.h"
#include "validate/validation_text.h"

namespace paraplan {

namespace {

constexpr double kJacobianStepFraction = 0.01;  // of each parameter's range
constexpr double kMinPredictedSeconds = 1e-9;

// A run with its plan frozen for one LM fit.
struct FrozenRun {
  const RunSpec* run = nullptr;
  ParallelPlan plan;
  bool simulate = true;
  double measured_step_s = 0;
};

struct FamilyRuns {
  std::vector<const RunSpec*> fitted;
  std::vector<const RunSpec*> held_out;
};

double PredictStepSeconds(const FrozenRun& frozen, const Efficiency& efficiency) {
  Cluster cluster = frozen.run->cluster;
  cluster.efficiency = efficiency;
  StepModel model(frozen.run->model, cluster, frozen.run->gpus);
  const StepResult result =
      frozen.simulate ? model.SimulateStepTime(frozen.plan) : model.Estimate(frozen.plan);
  return TimedStepSeconds(*frozen.run, result);
}

// The pipeline tasks a run's simulation steps through (stages x chunks x micro-batches): what
// its step time costs to predict, within a few times. A simulated run of a thousand micro-batches
// through 14 stages of 9 chunks costs 20 ms, most runs well under 1 ms (docs/performance.md,
// "Stop 41").
double SimulatedTasks(const FrozenRun& frozen) {
  if (!frozen.simulate) return 0;
  const ParallelPlan& p = frozen.plan;
  return static_cast<double>(p.pp) * static_cast<double>(p.vpp) *
         static_cast<double>(std::max<int64_t>(p.MicroBatches(), 1));
}

// The runs' indices, the costliest prediction first (ties in index order): the workers take the
// long ones before the short ones, so none starts a family's longest run while the others idle.
// Each prediction is written by its index; the order changes nothing else.
std::vector<size_t> LongestFirst(const std::vector<FrozenRun>& runs) {
  std::vector<size_t> order(runs.size());
  std::vector<double> tasks(runs.size());
  for (size_t i = 0; i < runs.size(); ++i) {
    order[i] = i;
    tasks[i] = SimulatedTasks(runs[i]);
  }
  std::stable_sort(order.begin(), order.end(),
                   [&tasks](size_t a, size_t b) { return tasks[a] > tasks[b]; });
  return order;
}

bool HasParameter(const std::vector<EfficiencyParameter>& params, const std::string& name) {
  return std::any_of(params.begin(), params.end(),
                     [&](const EfficiencyParameter& p) { return p.name == name; });
}

// `base` is the prior. Where only gemm_max is fitted (A100, which has no fp8), fp8_gemm_max keeps
// the prior's fp8 / bf16 ratio. Hopper fits fp8_gemm_max itself within the harness's fp8 range:
// tied to bf16 at the tile model's measured ratio (0.675 / 0.725) every FP8 run came out fast
// (docs/validation/lessons.md, "Stop 27").
Efficiency FromVector(Efficiency base, const std::vector<EfficiencyParameter>& params,
                      const Eigen::VectorXd& x) {
  const double prior_gemm = base.gemm_max, prior_fp8 = base.fp8_gemm_max;
  for (size_t j = 0; j < params.size(); ++j) {
    SetEfficiencyValue(base, params[j].name, x[static_cast<Eigen::Index>(j)]);
  }
  if (prior_gemm > 0 && HasParameter(params, "gemm_max") && !HasParameter(params, "fp8_gemm_max")) {
    base.fp8_gemm_max = prior_fp8 * base.gemm_max / prior_gemm;
  }
  return base;
}

Eigen::VectorXd ToVector(const Efficiency& efficiency,
                         const std::vector<EfficiencyParameter>& params) {
  Eigen::VectorXd x(static_cast<Eigen::Index>(params.size()));
  for (size_t j = 0; j < params.size(); ++j) {
    x[static_cast<Eigen::Index>(j)] = GetEfficiencyValue(efficiency, params[j].name);
  }
  return x;
}

void Clamp(Eigen::VectorXd& x, const std::vector<EfficiencyParameter>& params) {
  for (size_t j = 0; j < params.size(); ++j) {
    auto i = static_cast<Eigen::Index>(j);
    x[i] = std::clamp(x[i], params[j].lower, params[j].upper);
  }
}

// Huber's loss (Huber 1964, "Robust Estimation of a Location Parameter") on the log errors: a run
// within delta of its prediction counts quadratically, one further out linearly, so a handful of
// runs the model has no mechanism for (-70%) cannot pin every parameter of a family to its bound.
// delta = 1.345 x the residuals' robust standard deviation (1.4826 x their median absolute
// deviation from the median), Holland & Welsch 1977's tuning for 95% efficiency on normal errors,
// and never below the measurements' own noise: vendor tables move by up to about 5-6% between
// revisions of one release (docs/validation/README.md, "Caveats"), so errors within 5% always
// count quadratically. Written as a transformed residual whose square is the loss, so the
// Levenberg-Marquardt step below minimises it unchanged.
constexpr double kHuberTuning = 1.345;
constexpr double kMadToSigma = 1.4826;
const double kMeasurementNoiseLog = std::log(1.05);

double HuberResidual(double r, double delta) {
  if (std::abs(r) <= delta) return r;
  return std::copysign(std::sqrt(2.0 * delta * std::abs(r) - delta * delta), r);
}

double Median(std::vector<double> values) {
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(mid), values.end());
  const double upper = values[mid];
  if (values.size() % 2 == 1) return upper;
  return 0.5 * (upper + *std::max_element(values.begin(),
                                          values.begin() + static_cast<std::ptrdiff_t>(mid)));
}

// The least-squares problem of one family: data rows sqrt(w) x Huber(log(pred/meas)), then
// ridge rows. w is the run's source weight (SourceWeights).
// `memo`, when set, holds the step times of these runs' plans, searched with `searched_with`, that
// every fit from the same start computes (FitMemo): the problem takes them from it, and records
// its first evaluations there (the start and the first Jacobian).
class FitProblem {
 public:
  FitProblem(std::vector<FrozenRun> runs, Efficiency prior, std::vector<EfficiencyParameter> params,
             const EfficiencyFitOptions& options, FitMemo* memo = nullptr,
             const Efficiency* searched_with = nullptr)
      : runs_(std::move(runs)),
        prior_(std::move(prior)),
        params_(std::move(params)),
        prior_x_(ToVector(prior_, params_)),
        options_(options),
        memo_(searched_with ? memo : nullptr),
        searched_with_(searched_with),
        order_(LongestFirst(runs_)) {
    std::vector<const RunSpec*> specs;
    specs.reserve(runs_.size());
    for (const FrozenRun& frozen : runs_) specs.push_back(frozen.run);
    for (double w : SourceWeights(specs, options_.source_weight_exponent)) {
      sqrt_weights_.push_back(std::sqrt(w));
    }
  }

  const std::vector<EfficiencyParameter>& params() const { return params_; }
  Efficiency ToEfficiency(const Eigen::VectorXd& x) const { return FromVector(prior_, params_, x); }

  // Fixes the Huber threshold from the log errors at x, where one solve starts; never below the
  // published tables' own noise; fewer than three runs keep plain least squares.
  void SetHuberScale(const Eigen::VectorXd& x) {
    huber_delta_ = std::numeric_limits<double>::infinity();
    const std::vector<double> errors = LogErrors(ToEfficiency(x));
    if (errors.size() < 3) return;
    const double center = Median(errors);
    std::vector<double> deviations;
    deviations.reserve(errors.size());
    for (double e : errors) deviations.push_back(std::abs(e - center));
    huber_delta_ = std::max(kHuberTuning * kMadToSigma * Median(deviations), kMeasurementNoiseLog);
  }

  double huber_delta() const { return huber_delta_; }

  Eigen::VectorXd Residuals(const Eigen::VectorXd& x) const {
    const std::vector<double> errors = LogErrors(ToEfficiency(x));
    const auto n_runs = static_cast<Eigen::Index>(runs_.size());
    Eigen::VectorXd r(n_runs + static_cast<Eigen::Index>(params_.size()));
    for (size_t i = 0; i < runs_.size(); ++i) {
      r[static_cast<Eigen::Index>(i)] = sqrt_weights_[i] * HuberResidual(errors[i], huber_delta_);
    }
    for (size_t j = 0; j < params_.size(); ++j) {
      const auto i = static_cast<Eigen::Index>(j);
      r[n_runs + i] = options_.ridge_weight * (x[i] - prior_x_[i]) / params_[j].prior_sigma;
    }
    return r;
  }

  Eigen::MatrixXd Jacobian(const Eigen::VectorXd& x, const Eigen::VectorXd& r) const {
    Eigen::MatrixXd jac(r.size(), x.size());
    for (Eigen::Index j = 0; j < x.size(); ++j) {
      const auto& p = params_[static_cast<size_t>(j)];
      double h = kJacobianStepFraction * (p.upper - p.lower);
      if (x[j] + h > p.upper) h = -h;
      Eigen::VectorXd xh = x;
      xh[j] += h;
      jac.col(j) = (Residuals(xh) - r) / h;
    }
    return jac;
  }

 private:
  // The log errors at `efficiency`. The last call's are kept: a solve starts with SetHuberScale and
  // then Residuals at the same point.
  std::vector<double> LogErrors(const Efficiency& efficiency) const {
    if (last_errors_ && last_efficiency_ == efficiency) return *last_errors_;
    // The start and one Jacobian column per parameter: the evaluations every fit from the same
    // start makes.
    const bool record = memo_ && evaluations_ <= params_.size();
    ++evaluations_;
    std::vector<double> errors(runs_.size());
    ParallelFor(runs_.size(), options_.threads, [&](size_t k) {
      const size_t i = order_[k];
      const std::string& id = runs_[i].run->id;
      std::optional<double> seconds;
      if (memo_) seconds = memo_->Step(id, *searched_with_, efficiency);
      if (!seconds) {
        seconds = PredictStepSeconds(runs_[i], efficiency);
        if (record) memo_->RecordStep(id, *searched_with_, efficiency, *seconds);
      }
      const double predicted = std::max(*seconds, kMinPredictedSeconds);
      errors[i] = std::log(predicted / runs_[i].measured_step_s);
    });
    last_efficiency_ = efficiency;
    last_errors_ = errors;
    return errors;
  }

  double huber_delta_ = std::numeric_limits<double>::infinity();
  std::vector<double> sqrt_weights_;
  std::vector<FrozenRun> runs_;
  Efficiency prior_;
  std::vector<EfficiencyParameter> params_;
  Eigen::VectorXd prior_x_;
  const EfficiencyFitOptions& options_;
  FitMemo* memo_ = nullptr;
  const Efficiency* searched_with_ = nullptr;
  std::vector<size_t> order_;  // LongestFirst(runs_)
  mutable size_t evaluations_ = 0;
  mutable Efficiency last_efficiency_;
  mutable std::optional<std::vector<double>> last_errors_;
};

// Levenberg–Marquardt from x (clamped to the bounds); returns the iterations taken.
int LevenbergMarquardt(const FitProblem& problem, Eigen::VectorXd& x, int max_iterations) {
  Eigen::VectorXd r = problem.Residuals(x);
  double cost = r.squaredNorm();
  double mu = 1e-2;
  int iteration = 0;
  for (; iteration < max_iterations; ++iteration) {
    const Eigen::MatrixXd jac = problem.Jacobian(x, r);
    const Eigen::MatrixXd jtj = jac.transpose() * jac;
    const Eigen::VectorXd grad = jac.transpose() * r;
    bool improved = false;
    while (mu < 1e8) {
      Eigen::MatrixXd damped = jtj;
      damped.diagonal() += mu * jtj.diagonal() + Eigen::VectorXd::Constant(x.size(), 1e-12);
      Eigen::VectorXd candidate = x + damped.ldlt().solve(-grad);
      Clamp(candidate, problem.params());
      const Eigen::VectorXd r_candidate = problem.Residuals(candidate);
      const double cost_candidate = r_candidate.squaredNorm();
      if (cost_candidate < cost) {
        const double gain = (cost - cost_candidate) / std::max(cost, 1e-30);
        x = candidate;
        r = r_candidate;
        cost = cost_candidate;
        mu = std::max(mu / 3.0, 1e-9);
        improved = gain > 1e-7;
        break;
      }
      mu *= 4.0;
    }
    if (!improved) break;
  }
  return iteration;
}

std::string PlanKey(const ParallelPlan& plan) {
  return ValidationPlanJson(plan).Dump(-1);
}

bool SamePlans(const std::vector<FrozenRun>& a, const std::vector<FrozenRun>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].run != b[i].run || PlanKey(a[i].plan) != PlanKey(b[i].plan)) return false;
  }
  return true;
}

// One run's search with `efficiency`: what the fit reads from it.
FitSearch SearchRun(const RunSpec& spec, const Efficiency& efficiency,
                    const EfficiencyFitOptions& options) {
  RunSpec run = spec;
  run.cluster.efficiency = efficiency;
  const RunOutcome outcome = EvaluateRun(run, options.run);
  FitSearch search;
  auto measured = spec.measured.find("step_time_s");
  if (outcome.status != RunStatus::kOk || !outcome.result || measured == spec.measured.end() ||
      measured->second <= 0) {
    return search;
  }
  search.usable = true;
  search.error_pct = outcome.error_pct.at("step_time_s");
  search.plan = outcome.result->plan;
  search.simulated = outcome.result->simulated;
  search.measured_step_s = measured->second;
  return search;
}

// Searches every run with `efficiency`; fills the step-time error summary and the frozen plans.
// `memo`, when set, gives the searches it holds and records the others (FitMemo).
std::vector<FrozenRun> EvaluateFamily(const std::vector<const RunSpec*>& runs,
                                      const Efficiency& efficiency,
                                      const EfficiencyFitOptions& options, MetricSummary* summary,
                                      FitMemo* memo = nullptr) {
  std::vector<FitSearch> searches(runs.size());
  ParallelFor(runs.size(), options.threads, [&](size_t i) {
    if (memo) {
      if (std::optional<FitSearch> known = memo->Search(runs[i]->id, efficiency)) {
        searches[i] = std::move(*known);
        return;
      }
    }
    searches[i] = SearchRun(*runs[i], efficiency, options);
    if (memo) memo->RecordSearch(runs[i]->id, efficiency, searches[i]);
  });
  std::vector<FrozenRun> frozen;
  std::vector<double> errors;
  for (size_t i = 0; i < runs.size(); ++i) {
    FitSearch& search = searches[i];
    if (!search.usable) continue;
    errors.push_back(search.error_pct);
    frozen.push_back({runs[i], std::move(search.plan), search.simulated, search.measured_step_s});
  }
  if (summary) *summary = Summarize(errors);
  return frozen;
}

Efficiency PriorFor(const std::string& family, const RunSpec& run) {
  std::vector<std::string> tiers;
  for (const auto& tier : run.cluster.network) tiers.push_back(tier.name);
  GpuSpec gpu = run.cluster.gpu;
  gpu.name = family;
  return PriorEfficiency(gpu, tiers);
}

std::vector<std::string> TierNames(const std::vector<const RunSpec*>& runs) {
  std::set<std::string> names;
  for (const RunSpec* run : runs) {
    for (const auto& tier : run->cluster.network) names.insert(tier.name);
  }
  return {names.begin(), names.end()};
}

// `step` is called after each outer iteration with the share of this family's fit done.
FamilyFit FitFamily(const std::string& family, const FamilyRuns& runs,
                    const EfficiencyFitOptions& options, const std::function<void(double)>& step) {
  FamilyFit fit;
  fit.family = family;
  for (const RunSpec* run : runs.fitted) fit.fitted_ids.push_back(run->id);
  for (const RunSpec* run : runs.held_out) fit.held_out_ids.push_back(run->id);
  fit.prior = PriorFor(family, *runs.fitted.front());
  GpuSpec gpu = runs.fitted.front()->cluster.gpu;
  gpu.name = family;
  fit.parameters = FittedParameters(gpu, TierNames(runs.fitted));
  // The searches and first step times at the prior are the same in every fit of these runs.
  FitMemo* memo = options.cache ? &options.cache->memo : nullptr;
  Efficiency current = fit.prior;
  std::vector<FrozenRun> previous;
  // The summary of the last search when it was made with `current` (it ended the loop).
  std::optional<MetricSummary> searched_current;
  for (int outer = 0; outer < options.outer_iterations; ++outer) {
    MetricSummary summary;
    std::vector<FrozenRun> frozen =
        EvaluateFamily(runs.fitted, current, options, &summary, outer == 0 ? memo : nullptr);
    if (outer == 0) fit.fitted_before = summary;
    if (frozen.empty() || (outer > 0 && SamePlans(frozen, previous))) {
      searched_current = summary;
      break;
    }
    FitProblem problem(frozen, fit.prior, fit.parameters, options, memo,
                       outer == 0 ? &fit.prior : nullptr);
    Eigen::VectorXd x = ToVector(current, fit.parameters);
    problem.SetHuberScale(x);
    fit.lm_iterations += LevenbergMarquardt(problem, x, options.lm_iterations);
    current = problem.ToEfficiency(x);
    previous = std::move(frozen);
    fit.outer_iterations = outer + 1;
    step(static_cast<double>(outer + 1) / options.outer_iterations);
  }
  fit.fitted = current;
  if (searched_current) {
    fit.fitted_after = *searched_current;
  } else {
    EvaluateFamily(runs.fitted, current, options, &fit.fitted_after);
  }
  EvaluateFamily(runs.held_out, fit.prior, options, &fit.held_out_before, memo);
  EvaluateFamily(runs.held_out, current, options, &fit.held_out_after);
  return fit;
}

// FitFamily through options.cache: the same family with the same fitted and held-out runs (ids in
// order) is fitted once.
FamilyFit CachedFitFamily(const std::string& family, const FamilyRuns& runs,
                          const EfficiencyFitOptions& options,
                          const std::function<void(double)>& step) {
  if (!options.cache) return FitFamily(family, runs, options, step);
  std::string key = family;
  for (const auto* list : {&runs.fitted, &runs.held_out}) {
    key += '|';
    for (const RunSpec* run : *list) key += run->id + ',';
  }
  {
    const std::lock_guard<std::mutex> lock(options.cache->mutex);
    auto it = options.cache->fits.find(key);
    if (it != options.cache->fits.end()) return it->second;
  }
  FamilyFit fit = FitFamily(family, runs, options, step);
  const std::lock_guard<std::mutex> lock(options.cache->mutex);
  options.cache->fits.emplace(key, fit);
  return fit;
}

}  // namespace

EfficiencyFitResult FitEfficiencies(const std::vector<RunSpec>& runs,
                                    const EfficiencyFitOptions& options) {
  EfficiencyFitResult result;
  std::vector<HoldoutKey> keys;
  std::vector<const RunSpec*> fittable;  // the runs of keys, in order
  for (const auto& run : runs) {
    if (run.evaluation_only) {
      result.evaluation_only_ids.push_back(run.id);
      continue;
    }
    keys.push_back({run.id, GpuModel(run.cluster.gpu.name)});
    fittable.push_back(&run);
  }
  const std::vector<bool> held = HeldOutRuns(keys, options.holdout_every);
  std::map<std::string, FamilyRuns> families;
  for (size_t i = 0; i < fittable.size(); ++i) {
    if (!fittable[i]->error.empty()) continue;
    auto& family = families[keys[i].family];
    (held[i] ? family.held_out : family.fitted).push_back(fittable[i]);
  }
  int64_t to_fit = 0;
  for (const auto& entry : families) to_fit += entry.second.fitted.empty() ? 0 : 1;
  for (const auto& [family, family_runs] : families) {
    if (family_runs.fitted.empty()) continue;
    const auto done = static_cast<double>(result.families.size());
    const auto step = [&options, done, to_fit](double share) {
      if (options.progress) options.progress((done + share) / static_cast<double>(to_fit), to_fit);
    };
    result.families.push_back(CachedFitFamily(family, family_runs, options, step));
    step(1.0);
    result.defaults[family] = result.families.back().fitted;
  }
  for (const auto& [derived, from] : DerivedFamilies()) {
    auto it = result.defaults.find(from);
    if (it == result.defaults.end() || result.defaults.count(derived)) continue;
    result.defaults[derived] = it->second;
    result.derived_from[derived] = from;
  }
  return result;
}

std::vector<RunSpec> WithEfficiencies(std::vector<RunSpec> runs,
                                      const std::map<std::string, Efficiency>& defaults) {
  for (auto& run : runs) {
    auto it = defaults.find(GpuModel(run.cluster.gpu.name));
    if (it != defaults.end()) run.cluster.efficiency = it->second;
  }
  return runs;
}

}  // namespace paraplan
