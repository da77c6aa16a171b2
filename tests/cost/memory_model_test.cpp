#include "cost/memory_model.h"

#include <catch2/catch.hpp>

#include "cost/cost_graph.h"
#include "cost/layer_cost.h"
#include "test_specs.h"

using namespace paraplan;

TEST_CASE("Korthikanti et al. 2022 activation formulas (GPT-3 175B: 5as/h = 80)", "[cost]") {
  const double s = 2048, b = 1, h = 12288, a = 96, sbh = s * b * h;
  CHECK(5 * a * s / h == Approx(80));
  CHECK(KorthikantiActivationBytes(s, b, h, a, 1, false, Recompute::kNone) ==
        Approx(sbh * (34 + 80)));
  CHECK(KorthikantiActivationBytes(s, b, h, a, 8, false, Recompute::kNone) ==
        Approx(sbh * (10 + 24.0 / 8 + 10)));
  CHECK(KorthikantiActivationBytes(s, b, h, a, 8, true, Recompute::kNone) ==
        Approx(sbh * (34 + 80) / 8));
  CHECK(KorthikantiActivationBytes(s, b, h, a, 8, true, Recompute::kSelective) ==
        Approx(34 * sbh / 8));
  CHECK(KorthikantiActivationBytes(s, b, h, a, 8, false, Recompute::kFull) == Approx(2 * sbh));
}

TEST_CASE("per-layer activations from tensor sizes match Korthikanti minus dropout masks",
          "[cost]") {
  // Without dropout (2 one-byte masks = 2sbh) and with FlashAttention (no 5as/h term), the GPT
  // layer stores 32 sbh: SP divides all of it by t, plain TP leaves 8 sbh replicated.
  const ModelSpec m = test::Gpt3_175B();
  const CostGraph d = BuildCostGraph(m);
  const Cluster c = test::DgxA100();
  const double s = 2048, h = 12288, t = 8, heads = 96;
  ParallelPlan p;
  p.tp = 8;
  p.dp = 1;
  p.micro_batch = 1;
  p.sequence_parallel = true;
  const double lse = 4.0 * s * heads / t;
  LayerCost l = ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c);
  const double korthikanti_sp =
      KorthikantiActivationBytes(s, 1, h, heads, t, true, Recompute::kSelective);
  CHECK(l.act_bytes == Approx(korthikanti_sp - 2 * s * h / t + lse));
  p.sequence_parallel = false;
  l = ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c);
  CHECK(l.act_bytes ==
        Approx(KorthikantiActivationBytes(s, 1, h, heads, t, false, Recompute::kSelective) -
               2 * s * h + lse));
  p.recompute = Recompute::kFull;
  l = ComputeLayerCost(d, 0, MakePlanShape(d, p, c), c);
  CHECK(l.act_bytes ==
        Approx(KorthikantiActivationBytes(s, 1, h, heads, t, false, Recompute::kFull)));
}

TEST_CASE("GQA stores smaller K/V than MHA", "[cost]") {
  ModelSpec gqa = test::Llama3_70B();
  ModelSpec mha = gqa;
  mha.kv_heads = mha.heads;
  const Cluster c = test::DgxH100();
  ParallelPlan p;
  const CostGraph dg = BuildCostGraph(gqa), dm = BuildCostGraph(mha);
  const double a = ComputeLayerCost(dg, 0, MakePlanShape(dg, p, c), c).act_bytes;
  const double b = ComputeLayerCost(dm, 0, MakePlanShape(dm, p, c), c).act_bytes;
  CHECK(a < b);
  CHECK(b - a == Approx(2.0 * 8192 * 2 * (64 - 8) * 128));  // K and V, 56 heads fewer each
}

TEST_CASE("micro-batches held per schedule", "[cost]") {
  ParallelPlan p;
  p.pp = 8;
  p.dp = 1;
  p.global_batch = 64;
  CHECK(MicroBatchesHeld(p, 0) == 8);
  CHECK(MicroBatchesHeld(p, 7) == 1);
  p.schedule = Schedule::kGpipe;
  CHECK(MicroBatchesHeld(p, 3) == 64);
  p.schedule = Schedule::kInterleaved;
  p.vpp = 2;
  CHECK(MicroBatchesHeld(p, 0) == Approx(8 * (1 + 7.0 / 16)));
  p.schedule = Schedule::kDualPipe;
  CHECK(MicroBatchesHeld(p, 0) == 9);
  p.schedule = Schedule::k1F1B;
  p.global_batch = 4;
  CHECK(MicroBatchesHeld(p, 0) == 4);  // never more than there are
}

TEST_CASE("ZeRO stages shard 2+4+12 bytes per parameter", "[cost]") {
  StageMemoryInput in;
  in.dense_params = 1e9;
  in.dense_shards = 8;
  const StageMemory z0 = ComputeStageMemory(in, 0, 0);
  CHECK(z0.weights_bytes == 2e9);
  CHECK(z0.grads_bytes == 4e9);
  CHECK(z0.optimizer_bytes == 12e9);
  const StageMemory z1 = ComputeStageMemory(in, 1, 0);
  CHECK(z1.optimizer_bytes == 1.5e9);
  CHECK(z1.grads_bytes == 4e9);
  const StageMemory z2 = ComputeStageMemory(in, 2, 0);
  CHECK(z2.grads_bytes == 0.5e9);
  const StageMemory z3 = ComputeStageMemory(in, 3, 0);
  CHECK(z3.weights_bytes == 0.25e9);
  CHECK(z3.TotalBytes() < z2.TotalBytes());
  CHECK(z2.TotalBytes() < z1.TotalBytes());
  CHECK(z1.TotalBytes() < z0.TotalBytes());
}

TEST_CASE("ZeRO-3 kept gathered holds whole bf16 weights and fp32 gradients beside the shards",
          "[cost]") {
  StageMemoryInput in;
  in.dense_params = 1e9;
  in.dense_shards = 8;
  in.keep_gathered = true;
  const StageMemory kept = ComputeStageMemory(in, 3, 0);
  CHECK(kept.weights_bytes == Approx(0.25e9 + 2e9));
  CHECK(kept.grads_bytes == Approx(0.5e9 + 4e9));
  CHECK(kept.optimizer_bytes == Approx(1.5e9));
  CHECK(ComputeStageMemory(in, 2, 0).grads_bytes == Approx(0.5e9));  // only zero 3 keeps
}
