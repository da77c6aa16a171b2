// FSDP2 without reshard after forward (issue 37, stop 45; kernel_recipe.h
// zero3_keep_after_forward: NeMo AutoModel's MoE parallelizer default at 8d9bfb90): each unit is
// gathered once per micro-batch, in the forward, and held unsharded until its backward.
#include <catch2/catch.hpp>

#include "cost/dp_comm.h"
#include "cost/memory_model.h"
#include "cost/plan_evaluation.h"
#include "cost/stage_memory.h"
#include "cost/zero3_comm.h"
#include "plan/framework_caps.h"
#include "test_specs.h"

using namespace paraplan;

namespace {

ParallelPlan Fsdp(bool keep, bool overlap) {
  ParallelPlan p;
  p.dp = 64;  // 8 nodes: the gathers cross the scale-out tier
  p.zero = 3;
  p.micro_batch = 1;
  p.global_batch = 256;  // 4 micro-batches per rank
  p.overlap_grad_reduce = overlap;
  p.overlap_param_gather = overlap;
  p.kernels.fusion = Fusion::kEager;  // FSDP2's copies on the compute stream
  p.kernels.zero3_keep_after_forward = keep;
  return p;
}

struct KeptRun {
  PlanEvaluation e;
  StageMemory mem;
};

// PlanEvaluation is not copyable (its stage vectors may point into it): filled in place.
void EvaluateKept(const ParallelPlan& p, KeptRun* r) {
  const CostGraph d = BuildCostGraph(test::TwoLayers());
  const Cluster c = test::DgxH100();
  EvaluatePlanTime(d, c, ResolveNetworkLinks(c), p, &r->e);
  r->mem = EvaluateStageMemory(d, p, r->e, 0);
}

}  // namespace

TEST_CASE("FSDP2 without reshard after forward gathers once per micro-batch", "[cost]") {
  KeptRun off, on;
  EvaluateKept(Fsdp(false, false), &off);
  EvaluateKept(Fsdp(true, false), &on);
  REQUIRE(on.e.micro_batches == 4);
  const Zero3Comm& a = off.e.dp[0].zero3;
  const Zero3Comm& b = on.e.dp[0].zero3;
  REQUIRE(a.gather_s > 0);
  REQUIRE(a.reduce_scatter_s > 0);
  // The forward's gathers and every reduce-scatter stay; the backward's re-gathers go.
  CHECK(a.gather_bwd_s == Approx(a.gather_s));
  CHECK(b.gather_s == Approx(a.gather_s));
  CHECK(b.reduce_scatter_s == Approx(a.reduce_scatter_s));
  CHECK(b.gather_bwd_s == 0);
  // The backward waits for no first gather, only for the last reduce-scatter.
  CHECK(Zero3BackwardFloorSeconds(a) == Approx(a.first_gather_s + a.last_reduce_scatter_s));
  CHECK(Zero3BackwardFloorSeconds(b) == Approx(b.last_reduce_scatter_s));
  // FSDP2's backward copies only the gradients in: its copy-out of the re-gather goes.
  REQUIRE(a.copy_fwd_s > 0);
  CHECK(b.copy_fwd_s == Approx(a.copy_fwd_s));
  CHECK(b.copy_bwd_s == Approx(a.copy_bwd_s - a.copy_fwd_s));
  // Without overlap every collective is on the critical path: four micro-batches, four fewer
  // backward gathers and copy-outs (the straggler term scales the shorter backward a little).
  const double saved = 4 * (a.gather_bwd_s + a.copy_fwd_s);
  CHECK(off.e.step_s - on.e.step_s == Approx(saved).epsilon(0.02));
  // Memory: the stage's weights held unsharded beside their 1/64 shards at the peak.
  REQUIRE(off.mem.weights_bytes > 0);
  CHECK(on.mem.weights_bytes - off.mem.weights_bytes == Approx(64 * off.mem.weights_bytes));
  CHECK(on.mem.grads_bytes == Approx(off.mem.grads_bytes));
}

TEST_CASE("FSDP2 without reshard after forward is no slower with prefetch", "[cost]") {
  KeptRun off, on;
  EvaluateKept(Fsdp(false, true), &off);
  EvaluateKept(Fsdp(true, true), &on);
  CHECK(on.e.dp[0].zero3.gather_bwd_s == 0);
  CHECK(on.e.step_s <= off.e.step_s);
}

TEST_CASE("Only FSDP's unit-by-unit ZeRO-3 keeps weights after the forward", "[cost]") {
  ParallelPlan p = Fsdp(true, true);
  CHECK(Zero3KeepsAfterForward(p));
  ParallelPlan gathered = p;  // already gathered once per step
  gathered.zero3_keep_gathered = true;
  CHECK_FALSE(Zero3KeepsAfterForward(gathered));
  ParallelPlan deepspeed = p;  // DeepSpeed's coordinator releases by reuse distance instead
  deepspeed.kernels.zero3_max_live_params = 1e9;
  CHECK_FALSE(Zero3KeepsAfterForward(deepspeed));
  KeptRun ds;
  EvaluateKept(deepspeed, &ds);
  CHECK(ds.e.dp[0].zero3.gather_bwd_s > 0);
  ParallelPlan two = p;  // not ZeRO-3
  two.zero = 2;
  CHECK_FALSE(Zero3KeepsAfterForward(two));
}

TEST_CASE("FSDP holds unsharded only what a group of more than one rank shards", "[cost][memory]") {
  // Experts over an expert-data-parallel group of one (ep = dp: AutoModel's J01 on one node)
  // are never gathered: only the dense part is held unsharded beside its shards.
  StageMemoryInput in;
  in.dense_params = 1e9;
  in.dense_shards = 8;
  in.expert_params = 3e9;
  in.expert_shards = 1;
  const StageMemory base = ComputeStageMemory(in, 3, 0);
  CHECK(base.weights_bytes == Approx(0.25e9 + 6e9));
  in.keep_after_forward = true;
  CHECK(ComputeStageMemory(in, 3, 0).weights_bytes == Approx(base.weights_bytes + 2e9));
  CHECK(ComputeStageMemory(in, 3, 0).grads_bytes == Approx(base.grads_bytes));
  in.keep_after_forward = false;
  in.keep_gathered = true;
  const StageMemory kept = ComputeStageMemory(in, 3, 0);
  CHECK(kept.weights_bytes == Approx(base.weights_bytes + 2e9));
  CHECK(kept.grads_bytes == Approx(base.grads_bytes + 4e9));
  // Sharded over two, the experts are held unsharded too.
  in.expert_shards = 2;
  const StageMemory two = ComputeStageMemory(in, 3, 0);
  CHECK(two.weights_bytes == Approx(0.25e9 + 3e9 + 2e9 + 6e9));
}

TEST_CASE("Megatron-FSDP and DeepSpeed ZeRO-3 refuse keeping weights after the forward",
          "[plan][framework]") {
  ParallelPlan p = Fsdp(true, true);
  p.grad_reduce_in_fp32 = false;
  auto mentions = [](const std::vector<std::string>& reasons) {
    for (const std::string& r : reasons) {
      if (r.find("zero3_keep_after_forward") != std::string::npos) return true;
    }
    return false;
  };
  CHECK(mentions(FrameworkViolations(Framework::kMegatron, nullptr, p, false)));
  CHECK(mentions(FrameworkViolations(Framework::kDeepSpeed, nullptr, p, false)));
  CHECK_FALSE(mentions(FrameworkViolations(Framework::kAutomodel, nullptr, p, false)));
  p.kernels.zero3_keep_after_forward = false;
  CHECK_FALSE(mentions(FrameworkViolations(Framework::kMegatron, nullptr, p, false)));
}
