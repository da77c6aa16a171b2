#include "study/study_runner.h"

#include <exception>
#include <mutex>
#include <optional>

#include "config/study_file.h"
#include "config/sweep.h"
#include "core/thread_pool.h"
#include "evaluate/fixed_plan.h"
#include "plan/plan_resolve.h"
#include "search/budget.h"
#include "search/framework_search.h"
#include "search/rerank.h"

namespace paraplan {

namespace {

std::string JoinReasons(const std::vector<std::string>& reasons) {
  std::string out;
  for (const auto& r : reasons) out += (out.empty() ? "" : "; ") + r;
  return out;
}

// The study's `tokens:` as a budget request on this point's cluster (its reliability, storage
// and power sections; no step-time band, no prices); nullopt without `tokens:`.
std::optional<BudgetRequest> PointBudgetRequest(const StudySpec& spec, const Cluster& cluster) {
  if (spec.tokens <= 0) return std::nullopt;
  BudgetRequest r;
  r.tokens = spec.tokens;
  r.reliability = cluster.reliability;
  r.storage = cluster.storage;
  r.power = cluster.power;
  r.host_link_GBps = cluster.gpu.host_link_GBps;
  return r;
}

void SetPointResult(const StudyPointInput& in, const std::optional<BudgetRequest>& request,
                    const StepResult& result, StudyRow& row) {
  const int64_t seq_len = result.plan.seq_len > 0 ? result.plan.seq_len : in.model.seq_len;
  if (!request) return SetRowResult(row, result, in.model.seq_len);
  const PlanBudget budget = ComputeBudget(result, in.gpus, seq_len, *request);
  SetRowResult(row, result, in.model.seq_len, &budget);
}

// With `tokens:` the search keeps this many plans and ranks them by wall-clock time to train
// (goodput included), as `plan --tokens` ranks its top 10.
constexpr int64_t kWallClockCandidates = 10;

void EvaluatePlanMode(const StudySpec& spec, const StudyPointInput& in, int threads,
                      StudyRow& row) {
  const std::optional<BudgetRequest> request = PointBudgetRequest(spec, in.cluster);
  SearchOptions options;
  options.threads = threads;
  options.simulate_top = spec.simulate_top;
  options.top_k = request ? kWallClockCandidates : 1;
  // As `plan` searches (search/framework_search.h): when nothing fits with the default memory
  // recipe, the optimizer-state recipes too.
  SearchResult result =
      SearchPlansFor(Framework::kAny, in.model, in.cluster, in.gpus, in.plan, options);
  row.searched = result.searched;
  row.feasible = result.feasible;
  if (result.plans.empty()) {
    row.status = "infeasible";
    row.reason = result.why_nothing_fits.empty() ? "no plan fits" : result.why_nothing_fits;
    return;
  }
  if (request) RankByWallClock(result, in.gpus, in.model.seq_len, *request);
  SetPointResult(in, request, result.plans.front(), row);
}

void EvaluateSimulateMode(const StudySpec& spec, const StudyPointInput& in, StudyRow& row) {
  ParallelPlan plan;
  try {
    plan = ResolvePlan(in.plan, in.gpus, in.model);
  } catch (const InputError& e) {
    row.status = "invalid";
    row.reason = e.message();
    return;
  }
  const FixedPlanOutcome fixed = RunFixedPlan(in.model, in.cluster, in.gpus, plan);
  if (!fixed.violations.empty()) {
    row.status = "invalid";
    row.reason = JoinReasons(fixed.violations);
    return;
  }
  SetPointResult(in, PointBudgetRequest(spec, in.cluster), *fixed.result, row);
}

StudyRow EvaluatePoint(const StudySpec& spec, const StudyPoint& point, const StudyPointInput& in,
                       int threads) {
  StudyRow row;
  row.index = point.index;
  for (const SweepValue* v : PointValues(spec.dimensions, point)) row.values.push_back(v->text);
  try {
    if (spec.mode == StudyMode::kPlan) {
      EvaluatePlanMode(spec, in, threads, row);
    } else {
      EvaluateSimulateMode(spec, in, row);
    }
  } catch (const InputError& e) {
    row = StudyRow{row.index, row.values, "error", e.message(), false, {}, {}, 0, 0};
  }
  return row;
}

}  // namespace

StudyTable MakeStudyTable(const StudySpec& spec) {
  StudyTable table;
  table.name = spec.name;
  table.mode = ToString(spec.mode);
  table.metric = spec.metric;
  table.title = spec.title.empty() ? spec.name : spec.title;
  table.x_label = spec.x_label;
  std::vector<size_t> dimension_of;
  for (const SweepAxis* axis : FlattenAxes(spec.dimensions, &dimension_of)) {
    table.keys.push_back(axis->key);
  }
  for (size_t d : dimension_of) table.key_dimension.push_back(static_cast<int64_t>(d));
  table.total_points = CountPoints(spec.dimensions);
  return table;
}

StudyTable RunStudy(const StudySpec& spec, const StudyRunOptions& options) {
  StudyTable table = MakeStudyTable(spec);
  const std::vector<StudyPoint> points =
      ShardPoints(ExpandPoints(spec.dimensions), options.shard, options.shard_count);
  std::vector<StudyPointInput> inputs;
  inputs.reserve(points.size());
  for (const StudyPoint& p : points) inputs.push_back(ResolveStudyPoint(spec, p));

  const int threads = ResolveThreads(options.threads);
  const bool across_points = static_cast<int64_t>(points.size()) >= threads;
  const int workers = across_points ? threads : 1;
  const int search_threads = across_points ? 1 : threads;
  table.rows.resize(points.size());
  std::mutex mutex;
  int64_t done = 0;
  std::exception_ptr failure;
  ParallelFor(points.size(), workers, [&](size_t i) {
    try {
      table.rows[i] = EvaluatePoint(spec, points[i], inputs[i], search_threads);
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex);
      if (!failure) failure = std::current_exception();
    }
    std::lock_guard<std::mutex> lock(mutex);
    ++done;
    if (options.progress) options.progress(done, static_cast<int64_t>(points.size()));
  });
  if (failure) std::rethrow_exception(failure);
  return table;
}

}  // namespace paraplan
