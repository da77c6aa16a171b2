// Property tests over random valid models, clusters and plans (issue 9). Seeded, bounded in
// count: the same cases every run. Each property is one the cost model must hold for any input.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <random>
#include <vector>

#include "evaluate/step_model.h"
#include "plan/plan_rules.h"

using namespace paraplan;

namespace {

struct PropertyCase {
  ModelSpec model;
  Cluster cluster;
  int64_t gpus = 0;
  ParallelPlan plan;
};

int64_t Pick(std::mt19937_64& rng, const std::vector<int64_t>& values) {
  return values[std::uniform_int_distribution<size_t>(0, values.size() - 1)(rng)];
}

ModelSpec RandomModel(std::mt19937_64& rng) {
  ModelSpec m;
  m.name = "random";
  m.heads = Pick(rng, {8, 16, 32, 64});
  m.head_dim = Pick(rng, {64, 128});
  m.hidden = m.heads * m.head_dim;
  m.kv_heads = Pick(rng, {1, 2, 4, 8});
  if (m.kv_heads > m.heads) m.kv_heads = m.heads;
  m.attention_kind = m.kv_heads == m.heads ? AttentionKind::kMha : AttentionKind::kGqa;
  m.layers = Pick(rng, {4, 8, 12, 16, 24, 32});
  m.ffn_hidden = m.hidden * Pick(rng, {2, 3, 4});
  m.vocab = Pick(rng, {32000, 50304, 128256});
  m.seq_len = Pick(rng, {1024, 2048, 4096, 8192});
  m.activation = Pick(rng, {0, 1}) ? Activation::kSwiglu : Activation::kGelu;
  if (Pick(rng, {0, 0, 1})) {
    MoeSpec moe;
    moe.experts = Pick(rng, {8, 16, 64});
    moe.top_k = Pick(rng, {1, 2, 4});
    moe.expert_ffn_hidden = m.hidden;
    m.moe = moe;
  }
  return m;
}

Cluster RandomCluster(std::mt19937_64& rng) {
  Cluster c;
  c.name = "random";
  c.gpu.name = "H100-random";
  c.gpu.memory_GiB = static_cast<double>(Pick(rng, {40, 80, 96, 141}));
  c.gpu.memory_bandwidth_GBps = static_cast<double>(Pick(rng, {1500, 2000, 3350, 4800}));
  const double bf16 = static_cast<double>(Pick(rng, {312, 989, 2250}));
  c.gpu.peak_tflops = {bf16 / 10, bf16 / 2, bf16, bf16, 2 * bf16};
  const int64_t node = Pick(rng, {4, 8, 72});
  c.network = {
      {"nvlink", node, static_cast<double>(Pick(rng, {150, 300, 450, 900})), 3, 1.0, false},
      {"scaleout", 1 << 20, static_cast<double>(Pick(rng, {12, 25, 50, 100})), 10, 1.0, false}};
  return c;
}

ParallelPlan RandomPlan(std::mt19937_64& rng, const ModelSpec& m, int64_t* gpus) {
  ParallelPlan p;
  p.tp = Pick(rng, {1, 2, 4, 8});
  p.pp = Pick(rng, {1, 2, 4});
  p.cp = Pick(rng, {1, 1, 2});
  p.dp = Pick(rng, {1, 2, 4, 8, 16});
  if (m.IsMoe()) p.ep = Pick(rng, {1, 2, 4});
  p.micro_batch = Pick(rng, {1, 2});
  p.global_batch = p.micro_batch * p.dp * Pick(rng, {1, 4, 8});
  p.recompute = static_cast<Recompute>(Pick(rng, {0, 1, 2}));
  p.sequence_parallel = p.tp > 1;
  p.zero = static_cast<int>(Pick(rng, {0, 1, 2, 3}));
  p.schedule = p.pp > 1 ? static_cast<Schedule>(Pick(rng, {0, 1, 3})) : Schedule::k1F1B;
  p.overlap_grad_reduce = Pick(rng, {0, 1}) == 1;
  *gpus = p.Gpus();
  return p;
}

std::vector<PropertyCase> ValidCases(int wanted) {
  std::mt19937_64 rng(20261129);
  std::vector<PropertyCase> cases;
  for (int attempt = 0; attempt < 20000 && static_cast<int>(cases.size()) < wanted; ++attempt) {
    PropertyCase c;
    c.model = RandomModel(rng);
    c.cluster = RandomCluster(rng);
    c.plan = RandomPlan(rng, c.model, &c.gpus);
    if (PlanViolations(c.model, c.cluster, c.gpus, c.plan, true).empty()) cases.push_back(c);
  }
  return cases;
}

bool FiniteNonNegative(const StepResult& r) {
  const TimeBreakdown& t = r.time;
  for (double v : {r.step_time_s, r.tokens_per_s_per_gpu, r.mfu, r.hfu, r.peak_memory_bytes,
                   t.compute_s, t.bubble_s, t.tp_comm_s, t.cp_comm_s, t.ep_comm_s, t.pp_comm_s,
                   t.dp_comm_exposed_s, t.optimizer_s}) {
    if (!std::isfinite(v) || v < 0) return false;
  }
  return r.step_time_s > 0 && r.tokens_per_s_per_gpu > 0 && r.peak_memory_bytes > 0;
}

double PeakStateBytes(const StepResult& r) {
  double peak = 0;
  for (const StageMemory& m : r.memory) {
    peak = std::max(peak, m.weights_bytes + m.grads_bytes + m.optimizer_bytes);
  }
  return peak;
}

}  // namespace

TEST_CASE("random valid plans: finite, positive, and the monotone properties", "[hardening]") {
  const std::vector<PropertyCase> cases = ValidCases(120);
  REQUIRE(cases.size() >= 60);
  for (const PropertyCase& c : cases) {
    INFO("tp=" << c.plan.tp << " pp=" << c.plan.pp << " dp=" << c.plan.dp << " cp=" << c.plan.cp
               << " ep=" << c.plan.ep << " zero=" << c.plan.zero << " layers=" << c.model.layers
               << " hidden=" << c.model.hidden << " moe=" << c.model.IsMoe());
    const StepModel base(c.model, c.cluster, c.gpus);
    const StepResult r = base.Estimate(c.plan);
    REQUIRE(FiniteNonNegative(r));
    const StepResult s = base.Simulate(c.plan);
    REQUIRE(FiniteNonNegative(s));
    // A simulated step is never shorter than its busiest stage's compute.
    CHECK(s.step_time_s >= s.time.compute_s * (1 - 1e-9));

    // More bandwidth (every tier, and HBM) or more peak FLOP/s is never slower.
    Cluster faster = c.cluster;
    for (auto& tier : faster.network) tier.bandwidth_GBps *= 2;
    faster.gpu.memory_bandwidth_GBps *= 2;
    CHECK(StepModel(c.model, faster, c.gpus).Estimate(c.plan).step_time_s <=
          r.step_time_s * (1 + 1e-9));
    Cluster stronger = c.cluster;
    stronger.gpu.peak_tflops.bf16 *= 2;
    stronger.gpu.peak_tflops.fp16 *= 2;
    stronger.gpu.peak_tflops.fp8 *= 2;
    // With pp > 1 the automatic stage balance (pp_layers) is re-chosen from the new speeds and
    // this test found it can pick a split ~0.3% worse (docs/reliability.md, known findings):
    // strict for one stage, within 1% otherwise.
    const double slack = c.plan.pp == 1 ? 1e-9 : 1e-2;
    CHECK(StepModel(c.model, stronger, c.gpus).Estimate(c.plan).step_time_s <=
          r.step_time_s * (1 + slack));

    // More GPU memory never turns a fitting plan into one that does not fit.
    Cluster bigger = c.cluster;
    bigger.gpu.memory_GiB *= 2;
    if (r.fits) CHECK(StepModel(c.model, bigger, c.gpus).Estimate(c.plan).fits);

    // zero = k + 1 never uses more memory than zero = k.
    if (c.plan.zero < 3) {
      ParallelPlan more = c.plan;
      more.zero += 1;
      if (PlanViolations(c.model, c.cluster, c.gpus, more, true).empty()) {
        // The model state (weights, gradients, optimizer) that ZeRO shards never grows. The
        // total may, on tiny stages: ZeRO-2/3 add gradient buckets and gathered layers that can
        // outweigh what sharding saves (docs/reliability.md, known findings).
        CHECK(PeakStateBytes(base.Estimate(more)) <= PeakStateBytes(r) * (1 + 1e-9));
      }
    }
  }
}
