// torchtitan's profiles: as its December 2024 benchmark ran it (9dec370, with torch 1963fc8), its
// last TOML version (238fa99) and its Python-config version (b5bcd76). Sources: docs/frameworks.md.
#include "plan/framework_profile.h"
#include "plan/knob_table.h"

namespace paraplan {
namespace {

using W = DefaultWhen;

std::vector<Refusal> TorchtitanRefusals() {
  return {
      {KnobName(Knob::kSchedule), "zero-bubble",
       "schedule=zero-bubble: paraplan's is ZB-H1 (one stage per rank); torchtitan's "
       "zero-bubble schedules (InterleavedZeroBubble, ZBVZeroBubble) need several "
       "stages per rank"},
      {KnobName(Knob::kSchedule), "dualpipe",
       "schedule=dualpipe: DualPipe keeps two parameter copies; torchtitan's DualPipeV is "
       "the one-copy V variant, a different schedule"},
      {KnobName(Knob::kZero), "1",
       "zero=1: FSDP2 shards gradients with the optimizer state; torchtitan runs zero=0 "
       "(replicate), zero=2 (fsdp_reshard_after_forward=never) or zero=3 (always)"},
      {KnobName(Knob::kRecompute), "selective",
       "recompute=selective is Megatron-LM's (core attention only); torchtitan's selective "
       "is per-op SAC: recompute=op"},
      {KnobName(Knob::kPrecision), "fp16",
       "precision=fp16: torchtitan trains in bf16 or fp8 (float8 converter)"},
      {KnobName(Knob::kDpCommDtype), "bf16",
       "dp_comm_dtype=bf16: torchtitan reduces gradients in fp32 (mixed_precision_reduce)"},
      {KnobName(Knob::kDpCommDtype), "fp8",
       "dp_comm_dtype=fp8: torchtitan reduces gradients in fp32 (mixed_precision_reduce)"},
      {KnobName(Knob::kMoeRouting), "drop",
       "moe_routing=drop: torchtitan's MoE is dropless (no capacity factor)"},
  };
}

// What every version shares. `config` is the file that holds its job configuration.
FrameworkProfile TorchtitanBase(const char* config) {
  FrameworkProfile p;
  p.framework = Framework::kTorchtitan;
  p.defaults = {
      {KnobName(Knob::kSchedule), "interleaved", W::kVppAbove1, "torchtitan default", config},
      {KnobName(Knob::kSchedule), "1f1b", W::kAlways, "torchtitan default", config},
      {KnobName(Knob::kVpp), "1", W::kNotInterleaved, "torchtitan default", config},
      {KnobName(Knob::kOverlapTpComm), "false", W::kTpAbove1, "torchtitan's default: async TP off",
       config},
      {KnobName(Knob::kSequenceParallel), "true", W::kTpAbove1,
       "torchtitan's TP shards norms along the sequence",
       "torchtitan/models/llama3/infra/parallelize.py, apply_tp: SequenceParallel"},
      {KnobName(Knob::kOverlapEpComm), "false", W::kAlways, "torchtitan has no EP overlap", config},
      {KnobName(Knob::kOverlapPpComm), "true", W::kPpAbove1,
       "PyTorch pipelining posts P2P asynchronously", "torch/distributed/pipelining/schedules.py"},
  };
  p.refusals = TorchtitanRefusals();
  p.runtime.fusion = Fusion::kEager;
  p.runtime.fusion_why = "torchtitan's default: torch.compile off";
  p.runtime.repeat_kv = true;
  p.runtime.sp_dim1_copies = true;
  p.runtime.selective_is_op_sac = true;
  // Full AC wraps each block in ptd_checkpoint_wrapper (torch's checkpoint_wrapper, default
  // CheckpointImpl.NO_REENTRANT): torchtitan/distributed/activation_checkpoint.py (torchtitan/
  // parallelisms/parallelize_llama.py before 2025), _apply_full_ac; early stop (kernel_recipe.h).
  p.runtime.recompute_early_stop = true;
  p.runtime.local_batch_per_rank = true;
  p.runtime.fsdp_keeps_gathered_with_pp = true;
  p.runtime.collectives =
      "FSDP2 all-gather/reduce-scatter (fp32 reduce), DTensor TP all-gather/reduce-scatter, "
      "pipelining batched P2P, CP ring send/recv";
  return p;
}

FrameworkProfile Torchtitan9dec370() {
  FrameworkProfile p = TorchtitanBase("torchtitan/config_manager.py (9dec370)");
  p.version = "9dec370";
  p.date = "2024-12-26";
  p.what = "torchtitan as its December 2024 H100 benchmark ran it (torch 1963fc8)";
  // Looped schedules (Interleaved 1F1B) run two stages per rank without split points.
  p.defaults.push_back({KnobName(Knob::kVpp), "2", W::kInterleaved,
                        "torchtitan's looped schedules run two stages per rank",
                        "torchtitan/parallelisms/pipelining_utils.py, generate_split_points"});
  p.runtime.unset_micro_batches = UnsetMicroBatches::kPpDegree;
  p.runtime.generated_split_points = true;
  p.runtime.lockstep_multi_stage = true;
  p.export_form = ExportForm::kTorchtitanToml;
  return p;
}

FrameworkProfile Torchtitan238fa99() {
  FrameworkProfile p = TorchtitanBase("torchtitan/config/job_config.py (238fa99)");
  p.version = "238fa99";
  p.date = "2026-02-23";
  p.what = "torchtitan's last version that reads TOML job files";
  p.defaults.push_back({KnobName(Knob::kMicroBatch), "1", W::kPpAbove1,
                        "torchtitan default: pipeline_parallel_microbatch_size = 1",
                        "torchtitan/config/job_config.py: pipeline_parallel_microbatch_size = 1"});
  p.export_form = ExportForm::kTorchtitanToml;
  return p;
}

FrameworkProfile TorchtitanB5bcd76() {
  FrameworkProfile p = TorchtitanBase("torchtitan/config/configs.py (b5bcd76)");
  p.version = "b5bcd76";
  p.date = "2026-08-21";
  p.what = "torchtitan with Python job configs (Trainer.Config; batch in tokens)";
  p.export_form = ExportForm::kTorchtitanPython;
  return p;
}

}  // namespace

std::vector<FrameworkProfile> TorchtitanProfiles() {
  return {Torchtitan9dec370(), Torchtitan238fa99(), TorchtitanB5bcd76()};
}

}  // namespace paraplan
