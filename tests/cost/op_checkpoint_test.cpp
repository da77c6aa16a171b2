#include "cost/op_checkpoint.h"

#include <catch2/catch.hpp>

#include "cost/compute_cost.h"
#include "cost/cost_graph.h"
#include "cost/layer_cost.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan OneGpuRecompute(Recompute recompute) {
  ParallelPlan p;
  p.micro_batch = 1;
  p.recompute = recompute;
  return p;
}

}  // namespace

TEST_CASE("per-op SAC saves every other mm, the SDPA output and the block input", "[cost]") {
  // Llama-3 70B, tp 1: mms wq, wk, wv, wo, w1, w3, w2; saved wq, wv, w1, w2.
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  const PlanShape s = MakePlanShape(d, OneGpuRecompute(Recompute::kOp), c);
  const double t = 8192, h = 8192, f = 28672, kv = 8 * 128.0;
  const OpCheckpointCost op = ComputeOpCheckpoint(d, 0, s, c);
  const double expected = 2 * t * (h /*input*/ + h /*wq*/ + kv /*wv*/ + h /*sdpa*/ + f + h) +
                          4.0 * t * 64 /*logsumexp*/;
  CHECK(op.saved_bytes == Approx(expected));
  const double recomputed = GemmSeconds(c, Precision::kBf16, t, kv, h) +
                            GemmSeconds(c, Precision::kBf16, t, h, h) +
                            GemmSeconds(c, Precision::kBf16, t, f, h);
  CHECK(op.recompute_gemm_s == Approx(recomputed));
  // HFU: wk, wo and w3 per token.
  CHECK(OpRecomputeFlopsPerToken(d, 0) == Approx(2 * (kv * h + h * h + f * h)));
}

TEST_CASE("op recompute keeps between selective and full, and redoes part of the forward",
          "[cost]") {
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  auto layer = [&](Recompute r) {
    return ComputeLayerCost(d, 0, MakePlanShape(d, OneGpuRecompute(r), c), c);
  };
  const LayerCost none = layer(Recompute::kNone), op = layer(Recompute::kOp),
                  full = layer(Recompute::kFull);
  CHECK(op.act_bytes < 0.6 * none.act_bytes);
  CHECK(op.act_bytes > 2 * full.act_bytes);
  CHECK(op.act_bytes + op.act_recompute_bytes == Approx(op.act_full_bytes));
  CHECK(op.recompute_s > 0);
  CHECK(op.recompute_s < 0.5 * full.recompute_s);
}

TEST_CASE("op recompute under sequence parallelism gathers the block inputs again", "[cost]") {
  // torchtitan's _save_list keeps the reduce-scatter's output, not the all-gather's.
  const CostGraph d = BuildCostGraph(test::Llama3_70B());
  const Cluster c = test::DgxH100();
  auto layer = [&](Recompute r, bool sp) {
    ParallelPlan p = OneGpuRecompute(r);
    p.tp = 8;
    p.sequence_parallel = sp;
    p.overlap_tp_comm = false;
    return ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c);
  };
  const LayerCost none = layer(Recompute::kNone, true), op = layer(Recompute::kOp, true);
  const double extra = op.tp_comm_s - none.tp_comm_s;
  CHECK(extra > 0);
  // The two all-gathers of one forward (attention and MLP inputs): half its TP time.
  CHECK(extra == Approx(none.tp_comm_fwd_s / 2).epsilon(0.02));
  CHECK(op.comm_busy_bwd_s[kCommTp] - none.comm_busy_bwd_s[kCommTp] == Approx(extra));
  CHECK(op.tp_comm_fwd_s == Approx(none.tp_comm_fwd_s));
  // Without sequence parallelism the all-reduce's output is the saved mm's: nothing redone.
  CHECK(layer(Recompute::kOp, false).tp_comm_s == Approx(layer(Recompute::kNone, false).tp_comm_s));
}
