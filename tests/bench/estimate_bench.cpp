// Micro-benchmark of the search's inner loop: StepModel::EstimateStepSeconds and
// PeakMemoryBytes over a spread of plans (not part of the test run; docs/performance.md).
// Usage: estimate_bench [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "cost/test_specs.h"
#include "evaluate/step_model.h"
#include "hardware/cluster.h"
#include "hardware/gpu_variability.h"
#include "model/model_spec.h"
#include "plan/plan_rules.h"

using namespace paraplan;

namespace {

std::vector<ParallelPlan> Plans(const ModelSpec& m, const Cluster& c, int64_t gpus) {
  std::vector<ParallelPlan> plans;
  for (int64_t tp : {1, 2, 4, 8}) {
    for (int64_t pp : {1, 2, 4, 8}) {
      for (int64_t mb : {1, 2}) {
        for (int z = 0; z <= 3; ++z) {
          for (Recompute r : {Recompute::kNone, Recompute::kSelective, Recompute::kFull}) {
            ParallelPlan p;
            p.tp = tp;
            p.pp = pp;
            p.dp = gpus / (tp * pp);
            p.micro_batch = mb;
            p.global_batch = 1024;
            p.zero = z;
            p.recompute = r;
            p.sequence_parallel = tp > 1;
            if (PlanViolations(m, c, gpus, p, true).empty()) plans.push_back(p);
          }
        }
      }
    }
  }
  return plans;
}

}  // namespace

int main(int argc, char** argv) {
  const int64_t iterations = argc > 1 ? std::atoll(argv[1]) : 200000;
  const ModelSpec m = test::Llama3_70B();
  // The SMs, NCCL channels and GEMM model hardware/dgx-h100.yaml states, so the bench times the
  // SM cost of overlap and the tile-and-wave GEMM model as a shipped cluster takes them, and the
  // per-GPU spread Sinha et al. measured on V100 (the slowest of N ranks, as a cluster that states
  // a spread pays it; H100 has none published, which skips the term).
  Cluster c = test::DgxH100WithSms();
  c.gpu.gemm_model = GemmModel::kTile;
  c.gpu.speed_sigma = PublishedSpeedSpread("V100-SXM2-32GB").sigma;
  const StepModel model(m, c, 512);
  const std::vector<ParallelPlan> plans = Plans(m, c, 512);
  double sink = 0;
  const std::clock_t cpu_start = std::clock();
  auto start = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iterations; ++i) {
    sink += model.EstimateStepSeconds(plans[static_cast<size_t>(i) % plans.size()]);
  }
  auto mid = std::chrono::steady_clock::now();
  for (int64_t i = 0; i < iterations; ++i) {
    sink += model.PeakMemoryBytes(plans[static_cast<size_t>(i) % plans.size()]);
  }
  auto end = std::chrono::steady_clock::now();
  const double cpu_s = static_cast<double>(std::clock() - cpu_start) / CLOCKS_PER_SEC;
  const double n = static_cast<double>(iterations);
  const double t_est = std::chrono::duration<double>(mid - start).count();
  const double t_mem = std::chrono::duration<double>(end - mid).count();
  std::printf("plans: %zu, iterations: %lld\n", plans.size(), static_cast<long long>(iterations));
  std::printf("EstimateStepSeconds: %.3f us/plan (%.0f plans/s/core)\n", 1e6 * t_est / n,
              n / t_est);
  std::printf("PeakMemoryBytes:     %.3f us/plan (%.0f plans/s/core)\n", 1e6 * t_mem / n,
              n / t_mem);
  // CPU time excludes time the process waited for a core (shared build machines).
  std::printf("both, CPU time: %.3f us/plan\n", 1e6 * cpu_s / (2 * n));
  std::printf("(checksum %g)\n", sink);
  return 0;
}
