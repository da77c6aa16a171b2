// Megatron-Core's per-step passes beside the Adam kernel (cost/megatron_step_passes.h): the
// gradient buffer's memset, the bf16 -> fp32 main-gradient cast, the norm's read and the master
// re-read by the master -> bf16 copy, against hand arithmetic; charged in the optimizer step of a
// plan under Megatron-Core's DDP only.
#include "cost/megatron_step_passes.h"

#include <catch2/catch.hpp>

#include "cost/compute_cost.h"
#include "cost/plan_evaluation.h"
#include "test_specs.h"

using namespace paraplan;

TEST_CASE("Megatron-Core's per-step passes: bytes per local and shard parameter",
          "[cost][megatron_step_passes]") {
  const Cluster c = test::DgxH100();
  const double local = 1e9, shard = 1.25e8;  // ZeRO-1 over 8 ranks
  // bf16 buffer, fp32 moments: memset 2 B per local parameter; per shard parameter the cast
  // (r2 w4), the norm (r4) and the copy's re-read of the master (r4).
  const MegatronStepPasses bf16 = MegatronStepPassesOf(c, local, shard, 2.0, MomentDtype::kFp32);
  CHECK(bf16.zero_grad_s == Approx(MemoryBoundSeconds(c, 2.0 * local)));
  CHECK(bf16.grad_cast_s == Approx(MemoryBoundSeconds(c, 6.0 * shard)));
  CHECK(bf16.grad_norm_s == Approx(MemoryBoundSeconds(c, 4.0 * shard)));
  CHECK(bf16.param_copy_s == Approx(MemoryBoundSeconds(c, 4.0 * shard)));
  CHECK(bf16.Total() == Approx(MemoryBoundSeconds(c, 2.0 * local + 14.0 * shard)));
  // fp32 buffer (grad_reduce_in_fp32): a 4 B memset and no cast (.float() is the tensor).
  const MegatronStepPasses fp32 = MegatronStepPassesOf(c, local, shard, 4.0, MomentDtype::kFp32);
  CHECK(fp32.zero_grad_s == Approx(MemoryBoundSeconds(c, 4.0 * local)));
  CHECK(fp32.grad_cast_s == 0);
  CHECK(fp32.Total() == Approx(MemoryBoundSeconds(c, 4.0 * local + 8.0 * shard)));
  // Precision-aware optimizer (bf16 moments): the gradients are handed over as they are and the
  // fused Adam writes the bf16 parameters itself: only the memset and the norm's bf16 read.
  const MegatronStepPasses aware = MegatronStepPassesOf(c, local, shard, 2.0, MomentDtype::kBf16);
  CHECK(aware.grad_cast_s == 0);
  CHECK(aware.param_copy_s == 0);
  CHECK(aware.Total() == Approx(MemoryBoundSeconds(c, 2.0 * local + 2.0 * shard)));
  // Nothing held, nothing charged.
  CHECK(MegatronStepPassesOf(c, 0, 0, 2.0, MomentDtype::kFp32).Total() == 0);
}

TEST_CASE("The passes are charged in the optimizer step under Megatron-Core's DDP only",
          "[cost][megatron_step_passes]") {
  ModelSpec m = test::Llama3_70B();  // as Llama 3 8B: 32 layers of 4096, FFN 14336
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.ffn_hidden = 14336;
  const Cluster c = test::DgxH100();
  const CostGraph d = BuildCostGraph(m);
  const NetworkLinks links = ResolveNetworkLinks(c);
  ParallelPlan p;
  p.dp = 8;
  p.zero = 1;
  p.micro_batch = 1;
  p.global_batch = 8;
  p.grad_reduce_in_fp32 = false;
  PlanEvaluation plain, megatron;
  EvaluatePlanTime(d, c, links, p, &plain);
  p.kernels.megatron_ddp_buckets = true;
  EvaluatePlanTime(d, c, links, p, &megatron);
  // Llama 3 8B on 8 ranks: the memset covers ~8.0e9 parameters at 2 B, the passes the 1/8 shard
  // at 14 B: ~(16 + 14) GB of HBM traffic, tens of milliseconds on an H100's 3.35 TB/s.
  const double extra = megatron.dp[0].optimizer_s - plain.dp[0].optimizer_s;
  CHECK(extra > MemoryBoundSeconds(c, 2.0 * 7.9e9 + 14.0 * 7.9e9 / 8));
  CHECK(extra < MemoryBoundSeconds(c, 2.0 * 8.2e9 + 14.0 * 8.2e9 / 8));
  // ZeRO-3 (Megatron-FSDP, DeepSpeed, FSDP2): not these passes.
  p.zero = 3;
  PlanEvaluation z3, z3m;
  EvaluatePlanTime(d, c, links, p, &z3m);
  p.kernels.megatron_ddp_buckets = false;
  EvaluatePlanTime(d, c, links, p, &z3);
  CHECK(z3m.dp[0].optimizer_s == Approx(z3.dp[0].optimizer_s));
}
