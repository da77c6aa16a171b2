// A synthetic cost model for the search tests: simple formulas with many exact ties, so that
// tie-breaking and thread-count independence are exercised. Not a model of any real system.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "core/units.h"
#include "model/model_spec.h"
#include "search/plan_evaluator.h"

namespace paraplan::testing {

inline ModelSpec FakeModel(int64_t layers = 8, int64_t heads = 8) {
  ModelSpec m;
  m.name = "fake";
  m.layers = layers;
  m.hidden = 1024;
  m.heads = heads;
  m.kv_heads = heads;
  m.head_dim = 1024 / heads;
  m.ffn_hidden = 4096;
  m.vocab = 32000;
  m.seq_len = 1024;
  return m;
}

class FakeEvaluator : public PlanEvaluator {
 public:
  FakeEvaluator(ModelSpec model, double capacity_GiB)
      : model_(std::move(model)), capacity_bytes_(GiBToBytes(capacity_GiB)) {}

  double MemoryCapacityBytes() const override { return capacity_bytes_; }

  std::vector<std::string> Violations(const ParallelPlan& p, bool first_only) const override {
    std::vector<std::string> out;
    if (model_.heads % p.tp != 0) {
      out.push_back("tp=" + std::to_string(p.tp) + " does not divide heads");
      if (first_only) return out;
    }
    if (model_.layers % (p.pp * p.vpp) != 0) out.push_back("pp x vpp does not divide layers");
    return out;
  }

  double PeakMemoryBytes(const ParallelPlan& p) const override { return TotalGiB(p) * kGiB; }

  // Coarse on purpose: many plans share a step time.
  double EstimateStepSeconds(const ParallelPlan& p) const override {
    const double work = 64.0 / static_cast<double>(p.tp * p.pp * p.dp * p.cp);
    const double bubble = static_cast<double>(p.pp - 1) / static_cast<double>(p.MicroBatches());
    const double recompute = p.recompute == Recompute::kFull        ? 0.3
                             : p.recompute == Recompute::kSelective ? 0.05
                                                                    : 0.0;
    const double tp_comm = p.tp > 1 && !p.overlap_tp_comm ? 0.1 * static_cast<double>(p.tp) : 0.0;
    return std::round((work * (1 + bubble + recompute) + tp_comm + 0.01 * p.zero) * 4) / 4;
  }

  StepResult Estimate(const ParallelPlan& p) const override {
    StepResult r;
    r.plan = p;
    r.step_time_s = EstimateStepSeconds(p);
    r.peak_memory_bytes = PeakMemoryBytes(p);
    r.memory_capacity_bytes = capacity_bytes_;
    r.fits = r.peak_memory_bytes <= capacity_bytes_;
    for (int64_t s = 0; s < p.pp; ++s) {
      StageMemory m;
      m.stage = s;
      m.weights_bytes = WeightsGiB(p) * kGiB;
      m.grads_bytes = m.weights_bytes;
      m.optimizer_bytes = OptimizerGiB(p) * kGiB;
      m.activations_bytes = (s == 0 ? ActivationsGiB(p) : ActivationsGiB(p) / 2) * kGiB;
      m.other_bytes = 1 * kGiB;
      r.memory.push_back(m);
    }
    r.time.compute_s = r.step_time_s;
    return r;
  }

  // The "simulator" disagrees slightly with the estimate, depending on the micro-batch.
  StepResult Simulate(const ParallelPlan& p) const override {
    StepResult r = Estimate(p);
    r.step_time_s *= 1.0 + 0.01 * static_cast<double>(p.micro_batch % 3);
    r.simulated = true;
    return r;
  }

 private:
  double WeightsGiB(const ParallelPlan& p) const { return 16.0 / static_cast<double>(p.tp * p.pp); }
  double OptimizerGiB(const ParallelPlan& p) const {
    const double shard = p.zero >= 1 ? static_cast<double>(p.dp) : 1.0;
    return 6 * WeightsGiB(p) / shard;
  }
  double ActivationsGiB(const ParallelPlan& p) const {
    const double per_mb = p.recompute == Recompute::kFull        ? 0.5
                          : p.recompute == Recompute::kSelective ? 2.0
                                                                 : 4.0;
    return per_mb * static_cast<double>(p.micro_batch * p.pp) / static_cast<double>(p.tp);
  }
  double TotalGiB(const ParallelPlan& p) const {
    return 2 * WeightsGiB(p) + OptimizerGiB(p) + ActivationsGiB(p) + 1;
  }

  ModelSpec model_;
  double capacity_bytes_;
};

}  // namespace paraplan::testing
