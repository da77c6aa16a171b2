// The profiles of DeepSpeed, Megatron-DeepSpeed and nanotron. Megatron-DeepSpeed and nanotron have
// no defaults read yet: a run's unstated knobs are searched (docs/frameworks.md).
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

using W = DefaultWhen;

std::vector<Refusal> DeepSpeedRefusals() {
  const char* only =
      ": DeepSpeed's PipelineEngine runs TrainSchedule (1F1B) only "
      "(deepspeed/runtime/pipe/schedule.py)";
  static const std::string gpipe = std::string("schedule=gpipe") + only;
  static const std::string inter = std::string("schedule=interleaved") + only;
  static const std::string zb = std::string("schedule=zero-bubble") + only;
  static const std::string dual = std::string("schedule=dualpipe") + only;
  return {
      {KnobName(Knob::kSchedule), "gpipe", gpipe.c_str()},
      {KnobName(Knob::kSchedule), "interleaved", inter.c_str()},
      {KnobName(Knob::kSchedule), "zero-bubble", zb.c_str()},
      {KnobName(Knob::kSchedule), "dualpipe", dual.c_str()},
      {KnobName(Knob::kRecompute), "selective",
       "recompute=selective: DeepSpeed's activation checkpointing recomputes whole layers "
       "(recompute=full)"},
      {KnobName(Knob::kRecompute), "op",
       "recompute=op: DeepSpeed's activation checkpointing recomputes whole layers "
       "(recompute=full)"},
      {KnobName(Knob::kPrecision), "fp8",
       "precision=fp8: the DeepSpeed config has bf16 and fp16 only"},
      {KnobName(Knob::kDpCommDtype), "fp8",
       "dp_comm_dtype=fp8: DeepSpeed has no fp8 gradient reduction"},
  };
}

FrameworkProfile DeepSpeed() {
  FrameworkProfile p;
  p.framework = Framework::kDeepSpeed;
  p.version = "v0.16";
  p.date = "2024-11";
  p.what = "DeepSpeed's engine and its JSON config (ZeRO, PipelineEngine, AutoTP)";
  const char* pipe = "deepspeed/runtime/pipe/schedule.py: TrainSchedule";
  p.defaults = {
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways, "DeepSpeed's only pipeline schedule", pipe},
      {KnobName(Knob::kVpp), "1", W::kAlways, "DeepSpeed's only pipeline schedule", pipe},
      {KnobName(Knob::kZero), "0", W::kAlways, "DeepSpeed default: zero_optimization.stage = 0",
       "deepspeed/runtime/zero/config.py: stage = 0"},
      {KnobName(Knob::kRecompute), "none", W::kAlways,
       "DeepSpeed default: no activation checkpointing",
       "deepspeed/runtime/activation_checkpointing/config.py"},
      {KnobName(Knob::kSequenceParallel), "false", W::kAlways,
       "DeepSpeed AutoTP has no Megatron SP", "deepspeed/module_inject/auto_tp.py"},
      {KnobName(Knob::kOverlapTpComm), "false", W::kAlways, "DeepSpeed has no TP overlap",
       "deepspeed/module_inject/auto_tp.py"},
      {KnobName(Knob::kOverlapEpComm), "false", W::kAlways, "DeepSpeed-MoE has no EP overlap",
       "deepspeed/moe/sharded_moe.py"},
      {KnobName(Knob::kOverlapPpComm), "false", W::kAlways,
       "DeepSpeed's pipeline sends are blocking", "deepspeed/runtime/pipe/p2p.py"},
  };
  p.refusals = DeepSpeedRefusals();
  p.runtime.collectives =
      "all-reduce (ZeRO-0/1) or reduce-scatter (ZeRO-2/3) of gradients, ZeRO-3 parameter "
      "all-gather with prefetch, blocking P2P for PP, all-to-all for MoE";
  p.export_form = ExportForm::kDeepSpeedJson;
  return p;
}

FrameworkProfile Unread(Framework framework, const char* what) {
  FrameworkProfile p;
  p.framework = framework;
  p.version = "unread";
  p.date = "";
  p.what = what;
  return p;
}

}  // namespace

std::vector<FrameworkProfile> OtherFrameworkProfiles() {
  return {
      DeepSpeed(),
      Unread(Framework::kMegatronDeepSpeed,
             "Megatron-DeepSpeed: no defaults read yet (unstated knobs are searched)"),
      Unread(Framework::kNanotron, "nanotron: no defaults read yet (unstated knobs are searched)")};
}

}  // namespace paraplan
