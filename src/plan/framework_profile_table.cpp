// The framework profiles (plan/framework_profile.h), one per framework and version. Every default
// names the file of the framework it is read from (the vendored copies in ../shared/realclients
// are Megatron-LM d98e8a6 and torchtitan 238fa99 and b5bcd76); docs/frameworks.md lists them.
// Parallel degrees (tp, pp, dp, cp, ep, etp) get no default: a source that leaves one out did not
// run the parser's 1, it left it unreported, so validate searches it.
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

using W = DefaultWhen;

// --- Megatron-LM ----------------------------------------------------------------------------

std::vector<Refusal> MegatronRefusals() {
  const char* sched =
      ": upstream Megatron-LM runs 1f1b and interleaved only "
      "(megatron/core/pipeline_parallel/schedules.py)";
  static const std::string gpipe = std::string("schedule=gpipe") + sched;
  static const std::string zb = std::string("schedule=zero-bubble") + sched;
  static const std::string dual = std::string("schedule=dualpipe") + sched;
  return {
      {KnobName(Knob::kSchedule), "gpipe", gpipe.c_str()},
      {KnobName(Knob::kSchedule), "zero-bubble", zb.c_str()},
      {KnobName(Knob::kSchedule), "dualpipe", dual.c_str()},
      {KnobName(Knob::kRecompute), "op",
       "recompute=op is torchtitan's per-op SAC; Megatron-LM has selective (core attention) "
       "and full (--recompute-granularity)"},
      {KnobName(Knob::kDpCommDtype), "fp8",
       "dp_comm_dtype=fp8: Megatron-LM has no fp8 gradient reduction"},
  };
}

// An unstated schedule: interleaved exactly when virtual stages are given, else 1F1B.
std::vector<KnobDefault> ScheduleDefaults(const char* framework_default, const char* source) {
  return {
      {KnobName(Knob::kSchedule), "interleaved", W::kVppAbove1, framework_default, source},
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways, framework_default, source},
      {KnobName(Knob::kVpp), "1", W::kNotInterleaved, framework_default, source},
  };
}

FrameworkProfile MegatronD98e8a6() {
  FrameworkProfile p;
  p.framework = Framework::kMegatron;
  p.version = "d98e8a6";
  p.date = "2026-08-22";
  p.what = "Megatron-LM's pretrain_gpt.py argument parser and validate_args at d98e8a6";
  p.defaults = ScheduleDefaults(
      "Megatron-LM default",
      "megatron/training/arguments.py: --num-layers-per-virtual-pipeline-stage unset = no "
      "interleaving");
  const std::vector<KnobDefault> rest = {
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "Megatron-LM default: --sequence-parallel unset",
       "megatron/core/model_parallel_config.py: sequence_parallel = False"},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways,
       "Megatron-LM default: --tp-comm-overlap unset",
       "megatron/core/model_parallel_config.py: tp_comm_overlap = False"},
      {KnobName(Knob::kOverlapEpComm), "false", W::kAlways,
       "Megatron-LM default: --overlap-moe-expert-parallel-comm unset",
       "megatron/core/model_parallel_config.py: overlap_moe_expert_parallel_comm = False"},
      {KnobName(Knob::kZero), "0", W::kAlways,
       "Megatron-LM default: --use-distributed-optimizer unset",
       "megatron/training/arguments.py: --use-distributed-optimizer (store_true)"},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "Megatron-LM default: --recompute-granularity unset",
       "megatron/core/transformer/transformer_config.py: recompute_granularity = None"},
      {KnobName(Knob::kOverlapGradReduce), "false", W::kAlways,
       "Megatron-LM default: --overlap-grad-reduce unset",
       "megatron/training/arguments.py: --overlap-grad-reduce default False"},
      {KnobName(Knob::kOverlapParamGather), "false", W::kAlways,
       "Megatron-LM default: --overlap-param-gather unset",
       "megatron/training/arguments.py: --overlap-param-gather default False"},
      {KnobName(Knob::kOverlapPpComm), "true", W::kInterleaved,
       "Megatron-LM default: P2P overlap unless --no-overlap-p2p-communication",
       "megatron/training/arguments.py: --no-overlap-p2p-communication (store_false)"},
      {KnobName(Knob::kOverlapPpComm), "false", W::kNotInterleaved,
       "Megatron-LM turns P2P overlap off without interleaving",
       "megatron/training/arguments.py, validate_args: overlap_p2p_comm = False"},
      {KnobName(Knob::kGradReduceInFp32), "true", W::kNotFp16,
       "Megatron-LM accumulates and reduces bf16 gradients in fp32",
       "megatron/training/arguments.py, validate_args: accumulate_allreduce_grads_in_fp32 = True "
       "for bf16"},
      {KnobName(Knob::kGradReduceInFp32), "false", W::kFp16,
       "Megatron-LM default: --accumulate-allreduce-grads-in-fp32 unset under fp16",
       "megatron/training/arguments.py: --accumulate-allreduce-grads-in-fp32 (store_true)"},
      {KnobName(Knob::kMoeRouting), "dropless", W::kAlways,
       "Megatron-LM default: no capacity factor",
       "megatron/core/transformer/transformer_config.py: moe_expert_capacity_factor = None"},
  };
  p.defaults.insert(p.defaults.end(), rest.begin(), rest.end());
  p.refusals = MegatronRefusals();
  p.runtime.fusion_why = "TransformerEngine modules (megatron/core/models/gpt/gpt_layer_specs.py)";
  p.runtime.collectives =
      "NCCL all-gather/reduce-scatter for SP, all-reduce or reduce-scatter/all-gather for DP "
      "(distributed optimizer), all-to-all for EP, P2P send/recv for PP";
  p.export_form = ExportForm::kMegatronArgs;
  return p;
}

// NeMo / Megatron-Bridge: Megatron-Core under NeMo's recipes, which set the overlap, sequence
// parallel and optimizer switches per model: no parser default describes them, so those knobs
// are searched unless the run states them.
FrameworkProfile NemoRecipes() {
  FrameworkProfile p;
  p.framework = Framework::kNemo;
  p.version = "recipes";
  p.date = "2024-07/2025-04";
  p.what = "NeMo 24.07-25.04 containers and Megatron-Bridge: Megatron-Core run from recipes";
  p.defaults = ScheduleDefaults(
      "Megatron-LM default",
      "megatron/training/arguments.py: --num-layers-per-virtual-pipeline-stage unset = no "
      "interleaving (NeMo passes virtual_pipeline_model_parallel_size through)");
  p.refusals = MegatronRefusals();
  p.runtime.fusion_why = "TransformerEngine modules";
  p.runtime.collectives = "as Megatron-LM";
  p.export_form = ExportForm::kNone;
  return p;
}

}  // namespace

std::vector<FrameworkProfile> TorchtitanProfiles();
std::vector<FrameworkProfile> OtherFrameworkProfiles();

const std::vector<FrameworkProfile>& FrameworkProfiles() {
  static const std::vector<FrameworkProfile> kProfiles = [] {
    std::vector<FrameworkProfile> out = {MegatronD98e8a6(), NemoRecipes()};
    for (FrameworkProfile& p : TorchtitanProfiles()) out.push_back(std::move(p));
    for (FrameworkProfile& p : OtherFrameworkProfiles()) out.push_back(std::move(p));
    return out;
  }();
  return kProfiles;
}

}  // namespace paraplan
