// Micro-benchmark of the search's inner loop: StepModel::EstimateStepSeconds and
// PeakMemoryBytes over a spread of plans (not part of the test run; docs/performance.md).
// Usage: estimate_bench [iterations]
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <vector>

#include "cost/step_model.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/plan_rules.h"

using namespace paraplan;

namespace {

ModelSpec Llama70B() {
  ModelSpec m;
  m.name = "llama3-70b";
  m.layers = 80;
  m.hidden = 8192;
  m.heads = 64;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn_hidden = 28672;
  m.vocab = 128256;
  m.seq_len = 8192;
  m.activation = Activation::kSwiglu;
  return m;
}

Cluster H100() {
  Cluster c;
  c.gpu = {"H100-SXM5-80GB", 80, 3350, {67, 495, 989, 989, 1979}};
  c.network = {{"nvlink", 8, 450, 3, 1.0, false}, {"scaleout", 32768, 50, 10, 1.0, false}};
  return c;
}

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
  const ModelSpec m = Llama70B();
  const Cluster c = H100();
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
