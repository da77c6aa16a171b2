// Search benchmark (not run by ctest; see docs/performance.md "## Search").
//   build-x/bench/search_bench [MODEL CLUSTER GPUS GLOBAL_BATCH THREADS]
// defaults: gpt3-175b dgx-h100 1024 1536 2. Prints
//   1. analytical evaluations per second on one core (EstimateStepSeconds on rule-valid plans
//      that fit), and the whole per-plan pipeline (rules → memory → estimate) per core;
//   2. the full `paraplan plan` search (SearchPlans, simulator top-64 included) on THREADS threads.
//   build-x/bench/search_bench scale [THREADS]
// issue 34's planning-at-scale cases, the full search only (on THREADS threads, default 1 and 2):
// Llama 3.1 405B on 131,072 H100 and DeepSeek-V3 on 131,072 GB200 (global batch 16,384; target
// 1 s each on 2 cores), and DeepSeek-V3 on 64 H200 with and without the calibrated profile
// (target: the calibrated search within 1.5x of the plain one).
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "config/resolve.h"
#include "core/units.h"
#include "evaluate/step_model.h"
#include "plan/plan_rules.h"
#include "search/plan_space.h"
#include "search/plan_summary.h"
#include "search/search.h"

namespace {

using Clock = std::chrono::steady_clock;

double Since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU seconds of this thread (or the whole process): on a shared machine the per-core rates are
// measured in CPU time, which other processes do not inflate.
double CpuSeconds(clockid_t clock) {
  timespec t{};
  clock_gettime(clock, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

struct Args {
  std::string model = "gpt3-175b";
  std::string cluster = "dgx-h100";
  int64_t gpus = 1024;
  int64_t global_batch = 1536;
  int threads = 2;
};

Args Parse(int argc, char** argv) {
  Args a;
  if (argc > 1) a.model = argv[1];
  if (argc > 2) a.cluster = argv[2];
  if (argc > 3) a.gpus = std::atoll(argv[3]);
  if (argc > 4) a.global_batch = std::atoll(argv[4]);
  if (argc > 5) a.threads = std::atoi(argv[5]);
  return a;
}

// Single-thread rates over the whole space: the per-plan pipeline, then the estimate alone.
void MeasurePerCore(const paraplan::StepModel& model, const paraplan::PlanSpace& space) {
  using namespace paraplan;
  const double capacity = GiBToBytes(model.cluster().gpu.memory_GiB);
  std::vector<ParallelPlan> fitting;
  const auto start = Clock::now();
  const double cpu_start = CpuSeconds(CLOCK_THREAD_CPUTIME_ID);
  for (PlanCursor cur(space, 0); !cur.AtEnd(); cur.Next()) {
    const ParallelPlan& p = cur.plan();
    if (!PlanViolations(model.model(), model.cluster(), model.gpus(), p, true).empty()) continue;
    if (model.PeakMemoryBytes(p) > capacity) continue;
    volatile double step = model.EstimateStepSeconds(p);
    (void)step;
    fitting.push_back(p);
  }
  const double pipeline_s = Since(start);
  const double pipeline_cpu_s = CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - cpu_start;
  const double plans = static_cast<double>(space.size());
  std::printf("space: %lld plans, %zu fit\n", static_cast<long long>(space.size()), fitting.size());
  std::printf("pipeline (rules+memory+estimate), 1 core: %.0f plans/CPU-s (%.0f plans/wall-s)\n",
              plans / pipeline_cpu_s, plans / pipeline_s);
  if (fitting.empty()) return;
  double sum = 0;
  int64_t evaluations = 0;
  const double eval_start = CpuSeconds(CLOCK_THREAD_CPUTIME_ID);
  while (CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - eval_start < 1.0) {
    for (const ParallelPlan& p : fitting) sum += model.EstimateStepSeconds(p);
    evaluations += static_cast<int64_t>(fitting.size());
  }
  const double eval_s = CpuSeconds(CLOCK_THREAD_CPUTIME_ID) - eval_start;
  std::printf("analytical evaluations (EstimateStepSeconds), 1 core: %.0f /CPU-s (checksum %.3g)\n",
              static_cast<double>(evaluations) / eval_s, sum);
}

// The full search of one case: CPU seconds (the whole process) and wall seconds.
void MeasureSearch(const std::string& model_name, const std::string& cluster_name, int64_t gpus,
                   int64_t global_batch, int threads) {
  using namespace paraplan;
  const ModelSpec model = LoadModel(model_name);
  const Cluster cluster = LoadCluster(cluster_name);
  PlanConstraints constraints;
  constraints.global_batch = std::vector<int64_t>{global_batch};
  SearchOptions options;
  options.threads = threads;
  const auto start = Clock::now();
  const double cpu_start = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
  const SearchResult result = SearchPlans(model, cluster, gpus, constraints, options);
  const double wall_s = Since(start);
  const double cpu_s = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
  std::printf(
      "%s on %lld x %s, global batch %lld, %d thread%s: %lld plans, %lld evaluated, "
      "%.3f CPU-s, %.3f s wall\n",
      model_name.c_str(), static_cast<long long>(gpus), cluster_name.c_str(),
      static_cast<long long>(global_batch), threads, threads == 1 ? "" : "s",
      static_cast<long long>(result.searched), static_cast<long long>(result.evaluated), cpu_s,
      wall_s);
}

int RunScale(int argc, char** argv) {
  std::vector<int> threads = {1, 2};
  if (argc > 2) threads = {std::atoi(argv[2])};
  try {
    for (int t : threads) {
      MeasureSearch("llama3.1-405b", "dgx-h100", 131072, 16384, t);
      MeasureSearch("deepseek-v3", "gb200-nvl72", 131072, 16384, t);
      MeasureSearch("deepseek-v3", "dgx-h200", 64, 256, t);
      MeasureSearch("deepseek-v3", "dgx-h200-calibrated", 64, 256, t);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "search_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace paraplan;
  if (argc > 1 && std::string(argv[1]) == "scale") return RunScale(argc, argv);
  const Args args = Parse(argc, argv);
  try {
    const ModelSpec model = LoadModel(args.model);
    const Cluster cluster = LoadCluster(args.cluster);  // with its efficiency defaults
    PlanConstraints constraints;
    constraints.global_batch = std::vector<int64_t>{args.global_batch};
    std::printf("search_bench: %s on %lld GPUs of %s, global batch %lld\n", args.model.c_str(),
                static_cast<long long>(args.gpus), args.cluster.c_str(),
                static_cast<long long>(args.global_batch));
    const PlanSpace space(model, args.gpus, constraints);
    const StepModel step_model(model, cluster, args.gpus);
    MeasurePerCore(step_model, space);
    SearchOptions options;
    options.threads = args.threads;
    const auto start = Clock::now();
    const double cpu_start = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID);
    const SearchResult result = SearchPlans(model, cluster, args.gpus, constraints, options);
    const double wall_s = Since(start);
    const double cpu_s = CpuSeconds(CLOCK_PROCESS_CPUTIME_ID) - cpu_start;
    std::printf(
        "full search, %d threads: %lld plans searched, %lld fit, top %lld simulated, "
        "%.3f s wall, %.3f CPU-s (%.3f s per thread)\n",
        args.threads, static_cast<long long>(result.searched),
        static_cast<long long>(result.feasible), static_cast<long long>(options.simulate_top),
        wall_s, cpu_s, cpu_s / args.threads);
    if (!result.plans.empty()) {
      const StepResult& best = result.plans.front();
      std::printf("best: %s: %.3f s/step, %.1f GiB, MFU %.1f %%\n", PlanSummary(best.plan).c_str(),
                  best.step_time_s, BytesToGiB(best.peak_memory_bytes), best.mfu * 100);
    }
  } catch (const std::exception& e) {
    std::fprintf(stderr, "search_bench: %s\n", e.what());
    return 2;
  }
  return 0;
}
