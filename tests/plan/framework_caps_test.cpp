// The framework capability table (plan --framework): what each framework refuses and the
// narrowing of constraints.
#include "plan/framework_caps.h"

#include <catch2/catch.hpp>

#include "config/resolve.h"
#include "core/error.h"

namespace paraplan {
namespace {

using F = Framework;

ModelSpec Llama() {
  ModelSpec m;
  m.name = "test";
  m.layers = 32;
  m.hidden = 4096;
  m.heads = 32;
  m.kv_heads = 8;
  m.head_dim = 128;
  m.ffn_hidden = 14336;
  m.vocab = 128256;
  m.seq_len = 8192;
  m.activation = Activation::kSwiglu;
  m.norm = Norm::kRmsNorm;
  m.position = Position::kRope;
  return m;
}

ParallelPlan CapsPlan(int64_t tp, int64_t pp, int64_t dp) {
  ParallelPlan p;
  p.tp = tp;
  p.pp = pp;
  p.dp = dp;
  p.global_batch = 64;
  p.sequence_parallel = tp > 1;
  return p;
}

TEST_CASE("framework names parse and bad ones name the flag", "[plan][framework]") {
  CHECK(ParseLaunchFramework("deepspeed") == F::kDeepSpeed);
  CHECK(ToString(ParseLaunchFramework("megatron")) == std::string("megatron"));
  CHECK_THROWS_WITH(ParseLaunchFramework("nemo"),
                    Catch::Contains("--framework") && Catch::Contains("torchtitan"));
}

TEST_CASE("each framework refuses what it cannot run", "[plan][framework]") {
  const ModelSpec m = Llama();
  ParallelPlan dual = CapsPlan(8, 4, 2);
  dual.schedule = Schedule::kDualPipe;
  CHECK(FrameworkViolations(F::kAny, &m, dual).empty());
  CHECK_FALSE(FrameworkViolations(F::kMegatron, &m, dual).empty());
  CHECK_FALSE(FrameworkViolations(F::kTorchtitan, &m, dual).empty());

  ParallelPlan p = CapsPlan(8, 4, 2);
  p.overlap_pp_comm = false;  // Megatron-LM's non-interleaved 1F1B does not overlap P2P
  CHECK(FrameworkViolations(F::kMegatron, &m, p).empty());
  p.overlap_pp_comm = true;
  CHECK_FALSE(FrameworkViolations(F::kMegatron, &m, p).empty());

  ParallelPlan zero2 = CapsPlan(1, 4, 16);
  zero2.zero = 2;
  zero2.overlap_pp_comm = false;
  zero2.overlap_param_gather = false;  // ZeRO-1/2 gather inside step()
  const auto ds = FrameworkViolations(F::kDeepSpeed, &m, zero2);
  REQUIRE(ds.size() == 1);
  CHECK_THAT(ds[0], Catch::Contains("incompatible with pipeline parallelism"));

  ParallelPlan autotp = CapsPlan(8, 1, 8);
  autotp.sequence_parallel = false;
  autotp.zero = 3;
  CHECK_FALSE(FrameworkViolations(F::kDeepSpeed, &m, autotp).empty());
  autotp.zero = 2;
  autotp.overlap_param_gather = false;
  CHECK(FrameworkViolations(F::kDeepSpeed, &m, autotp).empty());
  // DeepSpeed's ZeRO-1/2 all-gather the updated partitions inside step() (stage_1_and_2.py):
  // no gather under the next forward; ZeRO-3 prefetches, so it cannot run without overlap.
  autotp.overlap_param_gather = true;
  const auto in_step = FrameworkViolations(F::kDeepSpeed, &m, autotp);
  REQUIRE(in_step.size() == 1);
  CHECK_THAT(in_step[0], Catch::Contains("inside step()"));
  ParallelPlan z3 = CapsPlan(1, 1, 64);
  z3.zero = 3;
  CHECK(FrameworkViolations(F::kDeepSpeed, &m, z3).empty());
  z3.overlap_param_gather = false;
  CHECK_THAT(FrameworkViolations(F::kDeepSpeed, &m, z3).front(), Catch::Contains("prefetches"));

  ParallelPlan zero1 = CapsPlan(8, 1, 8);
  zero1.zero = 1;
  CHECK_FALSE(FrameworkViolations(F::kTorchtitan, &m, zero1).empty());
  zero1.zero = 2;
  CHECK(FrameworkViolations(F::kTorchtitan, &m, zero1).empty());
  zero1.recompute = Recompute::kSelective;
  CHECK_FALSE(FrameworkViolations(F::kTorchtitan, &m, zero1).empty());
  zero1.recompute = Recompute::kOp;
  CHECK(FrameworkViolations(F::kTorchtitan, &m, zero1).empty());
  CHECK_FALSE(FrameworkViolations(F::kMegatron, &m, zero1).empty());

  ModelSpec gpt = m;
  gpt.activation = Activation::kGelu;
  gpt.position = Position::kLearned;
  CHECK_FALSE(FrameworkViolations(F::kTorchtitan, &gpt, CapsPlan(8, 1, 8)).empty());
  CHECK(FrameworkViolations(F::kTorchtitan, nullptr, CapsPlan(8, 1, 8)).empty());  // knobs only
  CHECK(FrameworkModelViolations(F::kTorchtitan, gpt).size() == 1);
  CHECK(FrameworkModelViolations(F::kTorchtitan, m).empty());
}

TEST_CASE("constraints narrow to the framework, and a fixed impossible knob is an error",
          "[plan][framework]") {
  PlanConstraints c;
  const PlanConstraints any = RestrictToFramework(F::kAny, c);
  CHECK_FALSE(any.schedule.has_value());
  const PlanConstraints ds = RestrictToFramework(F::kDeepSpeed, c);
  REQUIRE(ds.schedule);
  CHECK(*ds.schedule == std::vector<Schedule>{Schedule::k1F1B});
  CHECK(*ds.cp == std::vector<int64_t>{1});
  CHECK(ds.overlap_param_gather->size() == 2);  // by ZeRO stage: the search tries both
  c.schedule = std::vector<Schedule>{Schedule::kDualPipe, Schedule::kInterleaved};
  CHECK(*RestrictToFramework(F::kMegatron, c).schedule ==
        std::vector<Schedule>{Schedule::kInterleaved});
  c.schedule = std::vector<Schedule>{Schedule::kDualPipe};
  CHECK_THROWS_WITH(RestrictToFramework(F::kMegatron, c),
                    Catch::Contains("--plan schedule") && Catch::Contains("megatron"));
}

TEST_CASE("torchtitan plans are costed with PyTorch's kernels and repeated K/V",
          "[plan][framework]") {
  PlanConstraints c;
  const PlanConstraints megatron = RestrictToFramework(F::kMegatron, c);
  REQUIRE(megatron.kernels);
  CHECK(megatron.kernels->fusion == Fusion::kTe);  // TransformerEngine, the default
  CHECK(megatron.kernels->megatron_ddp_buckets);   // Megatron-Core's DDP bucketing
  CHECK(megatron.kernels->repeat_kv == false);
  PlanConstraints titan = RestrictToFramework(F::kTorchtitan, c);
  REQUIRE(titan.kernels);
  CHECK_FALSE(titan.kernels->megatron_ddp_buckets);  // FSDP2, not Megatron's DDP
  CHECK(titan.kernels->fusion == Fusion::kEager);    // training.compile defaults to false
  CHECK(titan.kernels->repeat_kv);
  titan = RestrictToFramework(F::kTorchtitan, ParsePlanString("fusion=compile"));
  CHECK(titan.kernels->fusion == Fusion::kCompile);  // the user's profile is kept
  CHECK(titan.kernels->repeat_kv);
}

TEST_CASE("a kernel switch stated alone keeps the framework's fusion profile",
          "[plan][framework]") {
  // sdpa_cudnn fixes a kernel recipe but says nothing of fusion: torchtitan still runs eager
  // PyTorch (training.compile defaults to false), not the default recipe's TransformerEngine.
  PlanConstraints titan = RestrictToFramework(F::kTorchtitan, ParsePlanString("sdpa_cudnn=true"));
  REQUIRE(titan.kernels);
  CHECK(titan.kernels->fusion == Fusion::kEager);
  CHECK(titan.kernels->sdpa_cudnn);
  CHECK(titan.kernels->repeat_kv);
  // Its full AC is PyTorch's non-reentrant checkpoint (kernel_recipe.h, recompute_early_stop).
  CHECK(titan.kernels->recompute_early_stop);
  CHECK_FALSE(
      RestrictToFramework(F::kMegatron, ParsePlanString("tp=2")).kernels->recompute_early_stop);
  // A stated fusion wins, with or without switches beside it.
  titan = RestrictToFramework(F::kTorchtitan, ParsePlanString("sdpa_cudnn=true,fusion=compile"));
  CHECK(titan.kernels->fusion == Fusion::kCompile);
  CHECK(titan.kernels->sdpa_cudnn);
  titan = RestrictToFramework(F::kTorchtitan, ParsePlanString("fusion=te"));
  CHECK(titan.kernels->fusion == Fusion::kTe);
}

TEST_CASE("a switch the user states off stays off under the framework's conventions",
          "[plan][framework]") {
  // Unstated, Megatron-LM's profile turns its DDP bucketing on and torchtitan's repeats K/V.
  CHECK(RestrictToFramework(F::kMegatron, ParsePlanString("tp=2")).kernels->megatron_ddp_buckets);
  CHECK(RestrictToFramework(F::kTorchtitan, ParsePlanString("tp=2")).kernels->repeat_kv);
  // Stated false, on the command line or in a runs file, it is kept false.
  const PlanConstraints megatron =
      RestrictToFramework(F::kMegatron, ParsePlanString("tp=2,megatron_ddp_buckets=false"));
  REQUIRE(megatron.kernels);
  CHECK_FALSE(megatron.kernels->megatron_ddp_buckets);
  const PlanConstraints titan =
      RestrictToFramework(F::kTorchtitan, ParsePlanString("tp=2,repeat_kv=false"));
  REQUIRE(titan.kernels);
  CHECK_FALSE(titan.kernels->repeat_kv);
  CHECK(titan.kernels->sp_dim1_copies);  // the switches it did not state still follow the profile
  // Stated true, it is on whatever the profile says.
  CHECK(RestrictToFramework(F::kTorchtitan, ParsePlanString("megatron_ddp_buckets=true"))
            .kernels->megatron_ddp_buckets);
}

}  // namespace
}  // namespace paraplan
