// Synthetic published runs for the efficiency-fit and cross-validation tests: small dense models
// on an H100-like cluster built in code, "measured" as the model predicts them under a known
// efficiency, so a fit can be checked against the truth that generated its data.
#pragma once

#include <catch2/catch.hpp>
#include <string>
#include <utility>
#include <vector>

#include "validate/run_evaluation.h"

namespace paraplan::test {

inline ModelSpec SyntheticDense(int64_t layers, int64_t hidden, int64_t heads) {
  ModelSpec m;
  m.name = "dense-" + std::to_string(hidden);
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.kv_heads = heads;
  m.head_dim = hidden / heads;
  m.ffn_hidden = 4 * hidden;
  m.vocab = 32000;
  m.seq_len = 2048;
  return m;
}

// H100 SXM datasheet numbers under any GPU name (the name picks the efficiency family).
inline Cluster SyntheticCluster(const std::string& gpu_name) {
  Cluster c;
  c.name = "test-" + gpu_name;
  c.gpu.name = gpu_name;
  c.gpu.memory_GiB = 80;
  c.gpu.memory_bandwidth_GBps = 3350;
  c.gpu.peak_tflops = {67, 495, 989, 989, 1979};
  c.network = {{"nvlink", 8, 450, 3, 1.0, false}, {"scaleout", 32768, 50, 10, 1.0, false}};
  return c;
}

// A data-parallel run at tensor parallelism `tp`, ZeRO-1, bf16, micro-batch 1.
inline RunSpec SyntheticRun(const std::string& id, const std::string& source, ModelSpec model,
                            int64_t gpus, int64_t tp, int64_t global_batch,
                            const std::string& gpu_name = "H100-SXM5-80GB") {
  RunSpec run;
  run.id = id;
  run.source = source;
  run.model = std::move(model);
  run.cluster = SyntheticCluster(gpu_name);
  run.gpus = gpus;
  run.plan.tp = std::vector<int64_t>{tp};
  run.plan.pp = std::vector<int64_t>{1};
  run.plan.cp = std::vector<int64_t>{1};
  run.plan.dp = std::vector<int64_t>{gpus / tp};
  run.plan.micro_batch = std::vector<int64_t>{1};
  run.plan.global_batch = std::vector<int64_t>{global_batch};
  run.plan.recompute = std::vector<Recompute>{Recompute::kNone};
  run.plan.zero = std::vector<int>{1};
  run.plan.precision = std::vector<Precision>{Precision::kBf16};
  run.plan.sequence_parallel = std::vector<bool>{tp > 1};
  return run;
}

// Each run's measured step time: its prediction under `truth`.
inline void MeasureWith(std::vector<RunSpec>& runs, const Efficiency& truth,
                        const RunEvaluationOptions& evaluation) {
  for (auto& run : runs) {
    RunSpec truth_run = run;
    truth_run.cluster.efficiency = truth;
    const RunOutcome outcome = EvaluateRun(truth_run, evaluation);
    INFO(run.id << ": " << outcome.message);
    REQUIRE(outcome.status == RunStatus::kOk);
    run.measured["step_time_s"] = outcome.predicted.at("step_time_s");
  }
}

}  // namespace paraplan::test
