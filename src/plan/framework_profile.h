// One profile per framework and version (issue 36): what that framework's code does with a plan.
//  - defaults: the value its argument parser or config gives each knob a user leaves unset, with
//    the file of the framework it comes from (validate fills a run's unstated knobs from these);
//  - refusals: the knob values it cannot run, each with its reason (plan --framework, exports);
//  - runtime: how it runs a layer (kernels and fusion, repeated K/V heads, FSDP under PP, its
//    pipeline runtime, the collectives it issues), which the cost model reads through the plan;
//  - export: the file form `plan --format` writes for it.
// The table is data (framework_profile_table.cpp), documented with every source in
// docs/frameworks.md. A framework version is its commit (or release) with the date.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "plan/framework.h"
#include "plan/kernel_recipe.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// When a default applies, read from the knobs already fixed (stated, or defaulted by an earlier
// row: rows apply in order).
enum class DefaultWhen {
  kAlways,
  kTpAbove1,          // tp fixed > 1
  kPpAbove1,          // pp fixed > 1
  kVppAbove1,         // vpp fixed > 1
  kInterleaved,       // schedule fixed to interleaved
  kNotInterleaved,    // schedule fixed to another schedule
  kFp16,              // precision fixed to fp16
  kNotFp16,           // precision fixed to bf16 or fp8
  kFp8,               // precision fixed to fp8
  kZero0,             // zero fixed to 0
  kZeroAbove0,        // zero fixed > 0
  kSequenceParallel,  // sequence_parallel fixed to true
};

// knob=value for a run that leaves `knob` unset, when `when` holds. `value` is written as in a
// --plan string; `why` goes into validate's note; `source` is the framework file it is read from.
struct KnobDefault {
  const char* knob;
  const char* value;
  DefaultWhen when;
  const char* why;
  const char* source;
};

// A knob value the framework cannot run: `knob` and `value` as a --plan string writes them,
// `reason` the sentence paraplan prints (with its source).
struct Refusal {
  const char* knob;
  const char* value;
  const char* reason;
};

// How the framework's pipeline splits a rank's batch when the user states no micro-batch size.
enum class UnsetMicroBatches {
  kNone,                 // no rule: the micro-batch is searched
  kPpDegree,             // local batch / pp micro-batches (torchtitan before PR #781)
  kPpTimesStagesPerRank  // local batch / (pp × stages per rank) (torchtitan PR #781, 2025-01)
};

struct FrameworkRuntime {
  // The kernels it runs a layer with when a run states none (nullopt: paraplan's default, TE).
  std::optional<Fusion> fusion;
  const char* fusion_why = "";
  bool repeat_kv = false;       // grouped K/V heads repeated to the query heads before SDPA
  bool sp_dim1_copies = false;  // SP collectives through PyTorch funcol on dim 1 (kernel_recipe.h)
  bool flash_attn2 = false;     // attention through flash-attn's FA2 kernel (kernel_recipe.h)
  bool recompute_early_stop = false;  // PyTorch's non-reentrant checkpoint (kernel_recipe.h)
  bool selective_is_op_sac = false;   // its "selective" checkpointing is per-op SAC (recompute=op)
  bool local_batch_per_rank = false;  // its batch knob is one DP rank's, split by the pipeline
  UnsetMicroBatches unset_micro_batches = UnsetMicroBatches::kNone;
  bool generated_split_points = false;       // no split points given: its own layer split
  bool fsdp_keeps_gathered_with_pp = false;  // FSDP weights stay gathered under PP (zero=3)
  bool lockstep_multi_stage = false;         // multi-stage schedules wait at every time step
  bool zero1_all_reduce = false;  // ZeRO-1 all-reduces the whole gradient buffer (kernel_recipe.h)
  bool zero_bucket_all_reduce =
      false;  // ZeRO-1/2 all-reduce each gradient bucket (kernel_recipe.h)
  bool zero2_micro_batch_reduce = false;  // ZeRO-2 reduces every micro-batch (kernel_recipe.h)
  bool fp32_grad_accum_pass = false;  // a per-tensor fp32 add after each backward (kernel_recipe.h)
  bool dp_reduce_fp32_copy = false;   // bf16 buckets all-reduced as fp32 copies (kernel_recipe.h)
  bool megatron_ddp_buckets = false;  // Megatron-Core DDP bucketing rules (kernel_recipe.h)
  // No layout flag given: num_layers / pp layers on every rank (stage_layout_rule.h, even_split)
  bool megatron_even_split = false;
  // ZeRO-3 through DeepSpeed's parameter coordinator with these limits (kernel_recipe.h,
  // zero3_max_live_params / zero3_max_reuse_distance; 0: FSDP's unit-by-unit gathers).
  double zero3_max_live_params = 0;
  double zero3_max_reuse_distance = 0;
  // The same pass only without pipeline parallelism: NeMo 1.11 turns its weight-gradient
  // accumulation fusion (wgrad GEMMs accumulating into the fp32 main_grad) off at pp 1, and apex's
  // DistributedFusedAdam then copies every bf16 gradient into its fp32 buffer (docs/frameworks.md).
  bool fp32_grad_accum_pass_without_pp = false;
  const char* collectives = "";  // what it issues, for docs and explain
};

enum class ExportForm {
  kNone,              // paraplan writes no launch file for it
  kMegatronArgs,      // pretrain_gpt.py flags (`--format megatron`)
  kTorchtitanToml,    // a TOML job file (`--format torchtitan`; torchtitan up to 238fa99)
  kTorchtitanPython,  // a Python config module (torchtitan b5bcd76 on; not written yet, issue 33)
  kDeepSpeedJson,     // a DeepSpeed config JSON (`--format deepspeed`)
};

struct FrameworkProfile {
  Framework framework = Framework::kUnstated;
  const char* version = "";  // commit or release: "d98e8a6", "9dec370", "v0.16.0"
  const char* date = "";     // of that commit or release
  const char* what = "";     // one line: which runs this version describes
  std::vector<KnobDefault> defaults;
  std::vector<Refusal> refusals;
  FrameworkRuntime runtime;
  ExportForm export_form = ExportForm::kNone;
};

// Every profile, grouped by framework, each framework's newest version last.
const std::vector<FrameworkProfile>& FrameworkProfiles();

// The profile of `framework` at `version` ("" = its newest); null when no profile has it (and for
// kUnstated).
const FrameworkProfile* FindProfile(Framework framework, const std::string& version = "");

// "d98e8a6, ..." for an error message; "" when the framework has no profile.
std::string ProfileVersions(Framework framework);

// The reason `profile` refuses knob=value, or "" when it runs it.
std::string RefusalReason(const FrameworkProfile& profile, const std::string& knob,
                          const std::string& value);

}  // namespace paraplan
