#include "validate/framework_conventions.h"

#include <algorithm>
#include <catch2/catch.hpp>

#include "validate/convention_fixtures.h"

using namespace paraplan;
using paraplan::testing::Layers;
using paraplan::testing::V;

namespace {

const FrameworkProfile* Titan() {
  return FindProfile(Framework::kTorchtitan, "9dec370");  // as the Dec 2024 benchmark ran it
}

const FrameworkProfile* Megatron() {
  return FindProfile(Framework::kMegatron);
}

}  // namespace

TEST_CASE("the framework comes from framework: and framework_version:, never the citation",
          "[validate]") {
  RunSpec run;
  run.source = "PyTorch torchtitan benchmark (Dec 2024)";
  CHECK(ProfileOfRun(run) == nullptr);  // nothing guessed from the text
  run.framework = Framework::kTorchtitan;
  REQUIRE(ProfileOfRun(run));
  CHECK(ProfileOfRun(run)->version == std::string("b5bcd76"));  // the newest
  run.framework_version = "9dec370";
  CHECK(ProfileOfRun(run)->version == std::string("9dec370"));
}

TEST_CASE("an unstated schedule is the framework default, not a searched one", "[validate]") {
  PlanConstraints c;
  c.pp = V<int64_t>(4);
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(Megatron(), Layers(36), c, &notes);
  REQUIRE(out.schedule);
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(*out.vpp == V<int64_t>(1));
  CHECK(notes.front() == "schedule=1f1b (Megatron-LM default)");
  c.vpp = V<int64_t>(3);
  out = ApplyFrameworkConventions(Megatron(), Layers(36), c, nullptr);
  CHECK(*out.schedule == V(Schedule::kInterleaved));
  c.schedule = V(Schedule::kZeroBubble);  // stated: kept
  out = ApplyFrameworkConventions(Megatron(), Layers(36), c, nullptr);
  CHECK(*out.schedule == V(Schedule::kZeroBubble));
  out = ApplyFrameworkConventions(nullptr, Layers(36), PlanConstraints{}, nullptr);
  CHECK(!out.schedule);
}

TEST_CASE("torchtitan: selective is per-op SAC, the local batch splits over the stages",
          "[validate]") {
  PlanConstraints c;
  c.pp = V<int64_t>(8);
  c.dp = V<int64_t>(8);
  c.global_batch = V<int64_t>(256);
  c.micro_batch = V<int64_t>(32);  // the local batch
  c.recompute = std::vector<Recompute>{Recompute::kSelective, Recompute::kFull};
  PlanConstraints out = ApplyFrameworkConventions(Titan(), Layers(128), c, nullptr);
  CHECK(*out.recompute == std::vector<Recompute>{Recompute::kOp, Recompute::kFull});
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(*out.micro_batch == V<int64_t>(4));  // 8 micro-batches, one per stage
  // Looped: 2 stages per rank, and still pp = 8 micro-batches (torchtitan before PR #781).
  c.schedule = V(Schedule::kInterleaved);
  out = ApplyFrameworkConventions(Titan(), Layers(128), c, nullptr);
  CHECK(*out.vpp == V<int64_t>(2));
  CHECK(*out.micro_batch == V<int64_t>(4));
  c.micro_batch = V<int64_t>(1);  // a real micro-batch is kept
  out = ApplyFrameworkConventions(Titan(), Layers(128), c, nullptr);
  CHECK(*out.micro_batch == V<int64_t>(1));
  // Dec 2024 PyTorch ran the looped schedule in lock-step time steps; 1F1B has its own runtime.
  c.kernels = KernelRecipe{Fusion::kCompile, false};
  c.micro_batch = V<int64_t>(32);
  out = ApplyFrameworkConventions(Titan(), Layers(128), c, nullptr);
  CHECK(out.kernels->pp_lockstep);
  c.schedule = V(Schedule::k1F1B);
  out = ApplyFrameworkConventions(Titan(), Layers(128), c, nullptr);
  CHECK_FALSE(out.kernels->pp_lockstep);
  c.schedule.reset();
  c.kernels.reset();
  c.pp = V<int64_t>(1);  // no PP: the local batch is one forward pass
  c.micro_batch = V<int64_t>(32);
  out = ApplyFrameworkConventions(Titan(), Layers(128), c, nullptr);
  CHECK(*out.micro_batch == V<int64_t>(32));
}

TEST_CASE("torchtitan: an unstated split is generate_split_points' layout", "[validate]") {
  PlanConstraints c;
  c.pp = V<int64_t>(8);
  std::vector<std::string> notes;
  // 126 layers on 8 stages: the first 15, six middle ones 16 (126 % 8 = 6 extra), the last 15.
  PlanConstraints out = ApplyFrameworkConventions(Titan(), Layers(126), c, &notes);
  REQUIRE(out.layout);
  CHECK(out.layout->split_points == std::vector<int64_t>{15, 31, 47, 63, 79, 95, 111});
  CHECK(notes.back() ==
        "pp_split_points=15,31,47,63,79,95,111 (torchtitan's generated split points)");
  // Interleaved, 16 virtual stages: 7, then 14 stages of 8 (126 % 16 = 14 extra), the last 7.
  c.schedule = V(Schedule::kInterleaved);
  c.vpp = V<int64_t>(2);
  out = ApplyFrameworkConventions(Titan(), Layers(126), c, nullptr);
  REQUIRE(out.layout);
  const std::vector<int64_t>& points = out.layout->split_points;
  REQUIRE(points.size() == 15);
  CHECK(points.front() == 7);
  CHECK(points[1] == 15);
  CHECK(points.back() == 119);  // the last virtual stage holds 126 - 119 = 7
  // A stated split is kept; so is one given as layers per stage.
  c.pp_layers = std::vector<int64_t>(16, 8);
  out = ApplyFrameworkConventions(Titan(), Layers(126), c, nullptr);
  CHECK(!out.layout);
  c.pp_layers.reset();
  c.pp = V<int64_t>(1);  // no PP: nothing to split
  out = ApplyFrameworkConventions(Titan(), Layers(126), c, nullptr);
  CHECK(!out.layout);
}

TEST_CASE("torchtitan: its Llama repeats grouped K/V heads before SDPA", "[validate]") {
  ModelSpec m = Layers(32);
  m.heads = 32;
  m.kv_heads = 8;
  PlanConstraints c;
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(Titan(), m, c, &notes);
  REQUIRE(out.kernels);
  CHECK(out.kernels->repeat_kv);
  CHECK(notes.back() ==
        "repeat_kv=true (torchtitan's Llama repeats K/V to the query heads before SDPA)");
  m.kv_heads = 32;  // MHA: nothing to repeat
  out = ApplyFrameworkConventions(Titan(), m, c, nullptr);
  CHECK_FALSE(out.kernels->repeat_kv);
  m.kv_heads = 8;  // Megatron-LM's attention reads the grouped heads
  out = ApplyFrameworkConventions(Megatron(), m, c, nullptr);
  CHECK((!out.kernels || !out.kernels->repeat_kv));
}

TEST_CASE("Megatron-LM d98e8a6: an unstated knob takes its argument parser's default",
          "[validate][framework]") {
  PlanConstraints c;
  c.tp = V<int64_t>(8);
  c.pp = V<int64_t>(4);
  c.precision = V(Precision::kBf16);
  c.sequence_parallel = V(true);  // stated: kept
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(Megatron(), Layers(32), c, &notes);
  CHECK(*out.sequence_parallel == V(true));
  CHECK(*out.zero == V(0));
  CHECK(*out.recompute == V(Recompute::kNone));
  CHECK(*out.overlap_tp_comm == V(false));
  CHECK(*out.overlap_grad_reduce == V(false));
  CHECK(*out.overlap_param_gather == V(false));
  CHECK(*out.overlap_pp_comm == V(false));     // validate_args: no P2P overlap without interleaving
  CHECK(*out.grad_reduce_in_fp32 == V(true));  // bf16: fp32 gradient reduction
  CHECK(!out.micro_batch);                     // no default: searched
  CHECK(std::find(notes.begin(), notes.end(),
                  "zero=0 (Megatron-LM default: --use-distributed-optimizer unset)") !=
        notes.end());
  c.vpp = V<int64_t>(2);
  c.precision = V(Precision::kFp16);
  out = ApplyFrameworkConventions(Megatron(), Layers(32), c, nullptr);
  CHECK(*out.schedule == V(Schedule::kInterleaved));
  CHECK(*out.overlap_pp_comm == V(true));
  CHECK(*out.grad_reduce_in_fp32 == V(false));  // fp16 without the flag
}

TEST_CASE("NeMo recipes and unread profiles leave the switches to the search",
          "[validate][framework]") {
  PlanConstraints c;
  c.tp = V<int64_t>(4);
  PlanConstraints out =
      ApplyFrameworkConventions(FindProfile(Framework::kNemo), Layers(32), c, nullptr);
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(!out.sequence_parallel);
  CHECK(!out.zero);
  CHECK(!out.overlap_tp_comm);
  out =
      ApplyFrameworkConventions(FindProfile(Framework::kMegatronDeepSpeed), Layers(32), c, nullptr);
  CHECK(!out.schedule);
}

TEST_CASE("nanotron c252843: an unstated knob takes ParallelismArgs' conservative default",
          "[validate][framework]") {
  PlanConstraints c;
  c.tp = V<int64_t>(4);
  c.pp = V<int64_t>(2);
  const FrameworkProfile* nanotron = FindProfile(Framework::kNanotron);
  REQUIRE(nanotron);
  PlanConstraints out = ApplyFrameworkConventions(nanotron, Layers(32), c, nullptr);
  CHECK(*out.schedule == V(Schedule::kGpipe));  // pp_engine None -> all forward, all backward
  CHECK(*out.sequence_parallel == V(false));    // tp_mode None -> ALL_REDUCE
  CHECK(*out.overlap_tp_comm == V(false));      // tp_linear_async_communication None -> False
  CHECK(*out.recompute == V(Recompute::kNone));
  // zero_stage is a required key: no default; searched over the stages nanotron runs (0, 1).
  REQUIRE(out.zero);
  CHECK(*out.zero == std::vector<int>{0, 1});
  // What a run states wins: the Ultra-Scale Playbook's configs ran 1F1B with REDUCE_SCATTER.
  c.schedule = V(Schedule::k1F1B);
  c.sequence_parallel = V(true);
  out = ApplyFrameworkConventions(nanotron, Layers(32), c, nullptr);
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(*out.sequence_parallel == V(true));
  CHECK(RefusalReason(*nanotron, "zero", "3").find("ZeRO-1") != std::string::npos);
  CHECK(RefusalReason(*nanotron, "schedule", "interleaved").find("1F1B") != std::string::npos);
  CHECK(RefusalReason(*nanotron, "zero", "1").empty());
  // tp_linear_async_communication overlaps one GEMM shard, not TE's chunked pipeline.
  CHECK(RefusalReason(*nanotron, "overlap_tp_comm", "true").find("reduce-scatter") !=
        std::string::npos);
  CHECK(RefusalReason(*nanotron, "overlap_tp_comm", "false").empty());
}

TEST_CASE("nanotron c252843: ZeRO-1 reduces gradients after the backward, ZeRO-0 during it",
          "[validate][framework]") {
  const FrameworkProfile* nanotron = FindProfile(Framework::kNanotron, "c252843");
  REQUIRE(nanotron);
  PlanConstraints c;
  c.zero = V(1);
  PlanConstraints out = ApplyFrameworkConventions(nanotron, Layers(16), c, nullptr);
  // accumulate_grad_in_fp32 with zero_stage > 0: no DDP, one fp32 all-reduce after the backward,
  // then the optimizer step's blocking parameter all-gather.
  CHECK(*out.grad_reduce_in_fp32 == V(true));
  CHECK(*out.overlap_grad_reduce == V(false));
  CHECK(*out.overlap_param_gather == V(false));
  CHECK(!out.dp_bucket_MB);  // one all-reduce of the whole buffer: no DDP bucket
  // ... of the whole buffer (reduce_scatter=False), not a reduce-scatter: zero1_all_reduce.
  REQUIRE(out.kernels);
  CHECK(out.kernels->zero1_all_reduce);
  CHECK(out.kernels->fusion == Fusion::kTe);  // nothing else of the kernels changes
  // zero_stage 0: DDP's comm hook all-reduces each fp32 bucket during the backward.
  c.zero = V(0);
  out = ApplyFrameworkConventions(nanotron, Layers(16), c, nullptr);
  CHECK(*out.overlap_grad_reduce == V(true));
  CHECK(*out.grad_reduce_in_fp32 == V(true));
  // zero=0: the all-reduce flag would change nothing and is not set; the fp32 accumulation
  // pass after each backward (FP32GradientAccumulator._accumulate_grad) runs at every stage.
  REQUIRE(out.kernels);
  CHECK(!out.kernels->zero1_all_reduce);
  CHECK(out.kernels->fp32_grad_accum_pass);
  // CoreAttention calls flash-attn's FlashAttention-2 (flash_attn_varlen_func), whatever the zero.
  CHECK(out.kernels->flash_attn2);
  // DDP's 25 MiB bf16 buckets, all-reduced as the parameters' fp32 buffers: 2 x 25 MiB.
  REQUIRE(out.dp_bucket_MB);
  CHECK(*out.dp_bucket_MB == V(2 * 25 * 1048576 / 1e6));
  // zero searched: neither overlap default applies, the search keeps both choices.
  c.zero.reset();
  out = ApplyFrameworkConventions(nanotron, Layers(16), c, nullptr);
  CHECK(!out.overlap_grad_reduce);
  CHECK(out.kernels->zero1_all_reduce);  // the zero=1 candidates reduce as nanotron does
  // Megatron-LM's distributed optimizer reduce-scatters: its profile sets no such flag.
  const FrameworkProfile* megatron = FindProfile(Framework::kMegatron);
  REQUIRE(megatron);
  c.zero = V(1);
  out = ApplyFrameworkConventions(megatron, Layers(16), c, nullptr);
  CHECK((!out.kernels || !out.kernels->zero1_all_reduce));
  CHECK((!out.kernels || !out.kernels->fp32_grad_accum_pass));  // wgrad accumulates into main_grad
  CHECK((!out.kernels || !out.kernels->flash_attn2));  // TransformerEngine's cuDNN attention
  c.zero.reset();
  // A stated knob wins.
  c.zero = V(1);
  c.overlap_grad_reduce = V(true);
  out = ApplyFrameworkConventions(nanotron, Layers(16), c, nullptr);
  CHECK(*out.overlap_grad_reduce == V(true));
}

TEST_CASE("DeepSpeed v0.16: ZeRO-1/2 gather inside step(), ZeRO-3 prefetches",
          "[validate][framework]") {
  const FrameworkProfile* ds = FindProfile(Framework::kDeepSpeed, "v0.16");
  REQUIRE(ds);
  PlanConstraints c;
  c.zero = V(2);
  PlanConstraints out = ApplyFrameworkConventions(ds, Layers(32), c, nullptr);
  // overlap_comm defaults to stage == 3; stage_1_and_2.py's step() all-gathers after the optimizer.
  CHECK(*out.overlap_grad_reduce == V(false));
  CHECK(*out.overlap_param_gather == V(false));
  c.zero = V(3);
  out = ApplyFrameworkConventions(ds, Layers(32), c, nullptr);
  CHECK(*out.overlap_grad_reduce == V(true));
  CHECK(*out.overlap_param_gather == V(true));
  // Unset zero takes the engine's default stage 0 first (rows in order): no overlap at all.
  c.zero.reset();
  out = ApplyFrameworkConventions(ds, Layers(32), c, nullptr);
  CHECK(*out.zero == V(0));
  CHECK(*out.overlap_grad_reduce == V(false));
  // A stated knob wins (P13/P14 state overlap_comm as overlap_grad_reduce=true).
  c.zero = V(2);
  c.overlap_grad_reduce = V(true);
  out = ApplyFrameworkConventions(ds, Layers(32), c, nullptr);
  CHECK(*out.overlap_grad_reduce == V(true));
  CHECK(*out.overlap_param_gather == V(false));
}

TEST_CASE("torchtitan versions differ in their unset micro-batch", "[validate][framework]") {
  PlanConstraints c;
  c.pp = V<int64_t>(4);
  c.tp = V<int64_t>(2);
  PlanConstraints out = ApplyFrameworkConventions(FindProfile(Framework::kTorchtitan, "238fa99"),
                                                  Layers(32), c, nullptr);
  CHECK(*out.micro_batch == V<int64_t>(1));  // pipeline_parallel_microbatch_size = 1
  CHECK(*out.sequence_parallel == V(true));
  CHECK(*out.overlap_tp_comm == V(false));
  CHECK(out.kernels->fusion == Fusion::kEager);
  CHECK_FALSE(out.kernels->pp_lockstep);
  out = ApplyFrameworkConventions(FindProfile(Framework::kTorchtitan, "b5bcd76"), Layers(32), c,
                                  nullptr);
  CHECK(!out.micro_batch);  // batch in tokens: searched
}

TEST_CASE("a run stating a kernel switch but no fusion keeps the framework's fusion",
          "[validate][framework]") {
  const FrameworkProfile* titan = FindProfile(Framework::kTorchtitan);
  REQUIRE(titan);
  PlanConstraints c;
  c.kernels = KernelRecipe{};  // what the loader builds for `sdpa_cudnn: true` alone
  c.kernels->sdpa_cudnn = true;
  PlanConstraints out = ApplyFrameworkConventions(titan, Layers(32), c, nullptr);
  CHECK(out.kernels->fusion == Fusion::kEager);  // was the default recipe's TE before stop 43
  CHECK(out.kernels->sdpa_cudnn);
  c.fusion_stated = true;  // `fusion: te` stated beside it
  out = ApplyFrameworkConventions(titan, Layers(32), c, nullptr);
  CHECK(out.kernels->fusion == Fusion::kTe);
}

TEST_CASE("NeMo 22.08: apex kernels, no TP overlap, grad sync after the pipeline under PP or SP",
          "[validate][framework]") {
  const FrameworkProfile* nemo = FindProfile(Framework::kNemo, "22.08");
  REQUIRE(nemo);
  CHECK(FindProfile(Framework::kNemo)->version == std::string("recipes"));  // still the newest
  REQUIRE(nemo->runtime.fusion);
  CHECK(*nemo->runtime.fusion == Fusion::kApex);
  // GPT-3 175B as the launcher's 175b.yaml ran it: TP 8, PP 8, SP.
  PlanConstraints c;
  c.tp = V<int64_t>(8);
  c.pp = V<int64_t>(8);
  c.sequence_parallel = V(true);
  PlanConstraints out = ApplyFrameworkConventions(nemo, Layers(96), c, nullptr);
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(*out.overlap_tp_comm == V(false));       // no userbuffers before TransformerEngine
  CHECK(*out.overlap_grad_reduce == V(false));   // overlap_grad_sync = False under PP
  CHECK(*out.overlap_param_gather == V(false));  // all-gathered inside DistributedFusedAdam.step
  CHECK(*out.grad_reduce_in_fp32 == V(true));
  CHECK(*out.overlap_pp_comm == V(false));  // apex's blocking P2P (async_comm False)
  // PP 8: the wgrad GEMMs accumulate into the fp32 main_grad (gradient_accumulation_fusion).
  CHECK((!out.kernels || !out.kernels->fp32_grad_accum_pass));
  // SP alone also turns the overlapped grad sync off.
  c.pp = V<int64_t>(1);
  out = ApplyFrameworkConventions(nemo, Layers(96), c, nullptr);
  CHECK(*out.overlap_grad_reduce == V(false));
  // 5B as 5b.yaml ran it: TP 1, PP 1, no SP: synced during the last micro-batch's backward.
  c.tp = V<int64_t>(1);
  c.sequence_parallel = V(false);
  out = ApplyFrameworkConventions(nemo, Layers(24), c, nullptr);
  CHECK(*out.overlap_grad_reduce == V(true));
  CHECK(*out.sequence_parallel == V(false));
  // PP 1: NeMo turns the accumulation fusion off, DistributedFusedAdam's grad hook adds each bf16
  // gradient into its fp32 buffer after every micro-batch.
  REQUIRE(out.kernels);
  CHECK(out.kernels->fp32_grad_accum_pass);
  CHECK(out.kernels->fusion == Fusion::kApex);
  // pp left open: the pass is not assumed.
  c.pp.reset();
  out = ApplyFrameworkConventions(nemo, Layers(24), c, nullptr);
  CHECK((!out.kernels || !out.kernels->fp32_grad_accum_pass));
  // The newest NeMo (Megatron-Core with TransformerEngine) has no such pass.
  c.pp = V<int64_t>(1);
  out = ApplyFrameworkConventions(FindProfile(Framework::kNemo), Layers(24), c, nullptr);
  CHECK((!out.kernels || !out.kernels->fp32_grad_accum_pass));
  CHECK(RefusalReason(*nemo, "schedule", "interleaved").find("1F1B") != std::string::npos);
}

TEST_CASE("NeMo 24.03: the launcher's Llama config, no SP, no TP overlap, no recompute, ZeRO-1",
          "[validate][framework]") {
  const FrameworkProfile* nemo = FindProfile(Framework::kNemo, "24.03");
  REQUIRE(nemo);
  CHECK(FindProfile(Framework::kNemo)->version == std::string("recipes"));  // still the newest
  CHECK(!nemo->runtime.fusion);  // TransformerEngine, paraplan's default kernels
  // Llama 2 7B at 1M tokens as the long-sequence page prints it: TP 8, CP 32, FP8, nothing else.
  PlanConstraints c;
  c.tp = V<int64_t>(8);
  c.pp = V<int64_t>(1);
  c.cp = V<int64_t>(32);
  c.precision = V(Precision::kFp8);
  PlanConstraints out = ApplyFrameworkConventions(nemo, Layers(32), c, nullptr);
  CHECK(*out.sequence_parallel == V(false));
  CHECK(*out.overlap_tp_comm == V(false));
  CHECK(*out.recompute == V(Recompute::kNone));
  CHECK(*out.zero == V<int>(1));
  REQUIRE(out.kernels);
  CHECK(out.kernels->fp8_recipe == Fp8Recipe::kDelayed);
  CHECK(*out.schedule == V(Schedule::k1F1B));
  CHECK(!out.micro_batch);  // the config's micro_batch_size is a recipe value: searched
  // A run that states a knob keeps it.
  c.sequence_parallel = V(true);
  out = ApplyFrameworkConventions(nemo, Layers(32), c, nullptr);
  CHECK(*out.sequence_parallel == V(true));
  // The recipes profile (NeMo 24.07 on) leaves these knobs to the search.
  c.sequence_parallel.reset();
  out = ApplyFrameworkConventions(FindProfile(Framework::kNemo), Layers(32), c, nullptr);
  CHECK(!out.sequence_parallel);
  CHECK(!out.overlap_tp_comm);
  CHECK(!out.zero);
}

TEST_CASE("DeepSpeed's engine under ZeRO reduces gradients in the training dtype",
          "[validate][framework]") {
  // deepspeed/runtime/engine.py get_data_types / communication_data_type: with ZeRO 1-3 the
  // gradients are accumulated and reduced in fp16/bf16; Megatron-DeepSpeed runs on that engine.
  for (Framework f : {Framework::kDeepSpeed, Framework::kMegatronDeepSpeed}) {
    INFO(static_cast<int>(f));
    PlanConstraints c;
    c.zero = V<int>(3);
    PlanConstraints out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    REQUIRE(out.grad_reduce_in_fp32);
    CHECK(*out.grad_reduce_in_fp32 == V(false));
    c.grad_reduce_in_fp32 = V(true);  // a run's stated value stands
    out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    CHECK(*out.grad_reduce_in_fp32 == V(true));
    c = PlanConstraints{};
    c.zero = V<int>(0);  // ZeRO-0: not this default
    out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    CHECK(!out.grad_reduce_in_fp32);
  }
}

TEST_CASE("torchtitan: DTensor's sequence-parallel collectives copy along dim 1", "[validate]") {
  ModelSpec m = Layers(32);
  PlanConstraints c;
  c.tp = V<int64_t>(8);
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(Titan(), m, c, &notes);
  REQUIRE(out.kernels);
  CHECK(out.kernels->sp_dim1_copies);
  CHECK(std::find(notes.begin(), notes.end(),
                  "sp_dim1_copies=true (DTensor's sequence-parallel collectives copy along "
                  "dim 1)") != notes.end());
  c.tp = V<int64_t>(1);  // no TP: nothing to note
  out = ApplyFrameworkConventions(Titan(), m, c, nullptr);
  CHECK_FALSE(out.kernels->sp_dim1_copies);
  c.tp = V<int64_t>(8);  // Megatron-LM's own collectives gather along dim 0
  out = ApplyFrameworkConventions(Megatron(), m, c, nullptr);
  CHECK((!out.kernels || !out.kernels->sp_dim1_copies));
}

TEST_CASE("DeepSpeed's ZeRO-3 runs through its parameter coordinator at the config's defaults",
          "[validate][framework][zero3_fetch]") {
  // deepspeed/runtime/zero/config.py: stage3_max_live_parameters and stage3_max_reuse_distance
  // 1e9 elements (v0.6.2 constants.py, v0.16 DeepSpeedZeroConfig).
  for (Framework f : {Framework::kDeepSpeed, Framework::kMegatronDeepSpeed}) {
    INFO(static_cast<int>(f));
    PlanConstraints c;
    c.zero = V<int>(3);
    PlanConstraints out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    REQUIRE(out.kernels);
    CHECK(out.kernels->zero3_max_live_params == 1e9);
    CHECK(out.kernels->zero3_max_reuse_distance == 1e9);
    KernelRecipe stated;  // a run's stated limits stand (the Azure recipes' 3e9)
    stated.zero3_max_live_params = 3e9;
    stated.zero3_max_reuse_distance = 3e9;
    c.kernels = stated;
    out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    CHECK(out.kernels->zero3_max_live_params == 3e9);
    CHECK(out.kernels->zero3_max_reuse_distance == 3e9);
    c = PlanConstraints{};
    c.zero = V<int>(2);  // below ZeRO-3 the coordinator does not run
    out = ApplyFrameworkConventions(FindProfile(f), Layers(32), c, nullptr);
    CHECK((!out.kernels || !out.kernels->DeepSpeedZero3()));
  }
  PlanConstraints c;  // FSDP (torchtitan) gathers unit by unit
  c.zero = V<int>(3);
  const PlanConstraints out = ApplyFrameworkConventions(Titan(), Layers(32), c, nullptr);
  CHECK((!out.kernels || !out.kernels->DeepSpeedZero3()));
}

TEST_CASE("torchtitan: full recompute through PyTorch's non-reentrant checkpoint stops early",
          "[validate]") {
  ModelSpec m = Layers(32);
  PlanConstraints c;
  c.recompute = std::vector<Recompute>{Recompute::kFull};
  std::vector<std::string> notes;
  PlanConstraints out = ApplyFrameworkConventions(Titan(), m, c, &notes);
  REQUIRE(out.kernels);
  CHECK(out.kernels->recompute_early_stop);
  CHECK(std::find(notes.begin(), notes.end(),
                  "recompute_early_stop=true (PyTorch's non-reentrant checkpoint stops the "
                  "recompute at the last saved tensor: the MLP down projection is not "
                  "redone)") != notes.end());
  // Another mode: set (it changes nothing there) but not noted.
  c.recompute = std::vector<Recompute>{Recompute::kSelective};
  notes.clear();
  out = ApplyFrameworkConventions(Titan(), m, c, &notes);
  CHECK(out.kernels->recompute_early_stop);
  CHECK(std::none_of(notes.begin(), notes.end(),
                     [](const std::string& n) { return n.rfind("recompute_early_stop", 0) == 0; }));
  // Megatron-LM's CheckpointFunction is reentrant: the whole forward again.
  c.recompute = std::vector<Recompute>{Recompute::kFull};
  out = ApplyFrameworkConventions(Megatron(), m, c, nullptr);
  CHECK((!out.kernels || !out.kernels->recompute_early_stop));
}
