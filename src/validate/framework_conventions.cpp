#include "validate/framework_conventions.h"

#include <algorithm>
#include <cctype>

namespace paraplan {
namespace {

template <typename T>
bool IsFixed(const Choice<T>& c) {
  return c && c->size() == 1;
}

bool Contains(std::string text, const char* word) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return text.find(word) != std::string::npos;
}

void Note(std::vector<std::string>* notes, const std::string& text) {
  if (notes) notes->push_back(text);
}

// An unstated schedule is the framework's default: 1F1B, interleaved only where virtual stages
// are given (Megatron-LM: --num-layers-per-virtual-pipeline-stage unset = no interleaving;
// torchtitan: pipeline_parallel_schedule = "1F1B").
void DefaultSchedule(const char* framework, PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.schedule) return;
  const bool virtual_stages = IsFixed(c.vpp) && c.vpp->front() > 1;
  c.schedule = std::vector<Schedule>{virtual_stages ? Schedule::kInterleaved : Schedule::k1F1B};
  if (!c.vpp) c.vpp = std::vector<int64_t>{1};
  Note(notes,
       std::string("schedule=") + ToString(c.schedule->front()) + " (" + framework + " default)");
}

// torchtitan (Dec 2024): training.batch_size is the local batch of one data-parallel rank; without
// PP it is one forward pass, with PP the schedule splits it into pipeline_parallel_microbatches.
// Unset, that was the PP degree for every schedule, looped ones (Interleaved 1F1B, two stages per
// rank) included, until torchtitan PR #781 (merged 2025-01-07, "fix num_microbatches input for
// PP") made it pp x stages per rank; the Dec 2024 benchmark ran torchtitan 9dec370 (2024-12-26)
// (torchtitan/parallelisms/pipelining_utils.py, build_pipeline_schedule).
void TorchtitanLocalBatch(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!IsFixed(c.pp) || c.pp->front() < 2 || !IsFixed(c.dp) || !IsFixed(c.global_batch)) return;
  const int64_t pp = c.pp->front(), dp = c.dp->front();
  const int64_t local = c.global_batch->front() / dp;
  if (local * dp != c.global_batch->front()) return;
  if (c.micro_batch && !(IsFixed(c.micro_batch) && c.micro_batch->front() == local)) return;
  const int64_t micro_batches = pp;
  if (local % micro_batches != 0) return;
  c.micro_batch = std::vector<int64_t>{local / micro_batches};
  Note(notes, "micro_batch=" + std::to_string(local / micro_batches) + " (torchtitan splits the " +
                  "local batch " + std::to_string(local) + " into " +
                  std::to_string(micro_batches) + " pipeline micro-batches, the PP degree)");
}

// torchtitan (Dec 2024) without pipeline_parallel_split_points: generate_split_points makes one
// stage per rank, two for a looped schedule (Interleaved 1F1B), and gives the first virtual
// stage layers // stages, each middle one a layer more while layers % stages last, and the last
// virtual stage the rest (torchtitan/parallelisms/pipelining_utils.py, 9dec370).
void TorchtitanSplitPoints(const ModelSpec& m, PlanConstraints& c,
                           std::vector<std::string>* notes) {
  if (!IsFixed(c.pp) || c.pp->front() < 2) return;
  const bool looped = IsFixed(c.schedule) && c.schedule->front() == Schedule::kInterleaved;
  if (looped && !c.vpp) c.vpp = std::vector<int64_t>{2};
  if (c.pp_layers || c.layout || (c.vpp && !IsFixed(c.vpp))) return;
  const int64_t stages = c.pp->front() * (c.vpp ? c.vpp->front() : 1);
  if (stages > m.layers) return;  // torchtitan refuses; the layout rules report it
  const int64_t base = m.layers / stages;
  int64_t extra = m.layers % stages;
  StageLayoutRule rule;
  int64_t layer = 0;
  for (int64_t i = 0; i + 1 < stages; ++i) {
    const int64_t longer = i > 0 && extra > 0 ? 1 : 0;  // a middle stage takes an extra layer
    extra -= longer;
    layer += base + longer;
    rule.split_points.push_back(layer);
  }
  std::string text;
  for (int64_t point : rule.split_points) text += (text.empty() ? "" : ",") + std::to_string(point);
  c.layout = rule;
  Note(notes, "pp_split_points=" + text + " (torchtitan's generated split points)");
}

// torchtitan (Dec 2024) with PP: FSDP does not reshard after the forward ("to avoid
// per-microbatch all-gathers", torchtitan/parallelisms/parallelize_llama.py, apply_fsdp), and
// PyTorch's pipeline schedules turn gradient sync and reshard-after-backward off for every
// micro-batch but the last (torch/distributed/pipelining/stage.py, backward_maybe_with_nosync):
// a stage's weights stay gathered for the step and its gradients accumulate unsharded (in the
// fp32 reduce dtype, FSDP2's unsharded_accumulated_grad).
void TorchtitanPipelinedFsdp(PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.zero3_keep_gathered || !IsFixed(c.pp) || c.pp->front() < 2) return;
  if (!IsFixed(c.zero) || c.zero->front() != 3) return;
  c.zero3_keep_gathered = std::vector<bool>{true};
  Note(notes, "zero3_keep_gathered=true (torchtitan does not reshard FSDP weights with PP)");
}

// torchtitan runs eager PyTorch unless its config turns torch.compile on (training.compile,
// default false, Dec 2024): a run that does not say "compile" ran eager.
void TorchtitanEager(PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.kernels) return;
  c.kernels = KernelRecipe{Fusion::kEager, false};
  Note(notes, "fusion=eager (torchtitan's default: torch.compile off)");
}

// torchtitan runs tensor parallelism synchronously unless async TP is turned on
// (experimental.enable_async_tensor_parallel, default false, Dec 2024): the sequence-parallel
// all-gathers and reduce-scatters sit between the GEMMs on the critical path.
void TorchtitanSyncTp(PlanConstraints& c, std::vector<std::string>* notes) {
  if (c.overlap_tp_comm) return;
  if (!IsFixed(c.tp) || c.tp->front() < 2) return;
  c.overlap_tp_comm = std::vector<bool>{false};
  Note(notes, "overlap_tp_comm=false (torchtitan's default: async TP off)");
}

// torchtitan (Dec 2024) ran torch 1963fc8 (2024-12-23), whose multi-stage schedules
// (ScheduleInterleaved1F1B, a PipelineScheduleMulti) step all ranks through a grid of time steps
// and wait at the end of each on that step's batched sends and receives
// (torch/distributed/pipelining/schedules.py, PipelineScheduleMulti._step_microbatches).
void TorchtitanLockstepPipeline(PlanConstraints& c, std::vector<std::string>* notes) {
  if (!c.kernels || c.kernels->pp_lockstep || !IsFixed(c.pp) || c.pp->front() < 2) return;
  if (!IsFixed(c.schedule) || c.schedule->front() != Schedule::kInterleaved) return;
  c.kernels->pp_lockstep = true;
  Note(notes, "pp_lockstep=true (PyTorch's multi-stage runtime waits at every time step)");
}

// torchtitan's Llama (torchtitan/models/llama/model.py, Dec 2024) expands grouped K/V heads to the
// query heads (`repeat_kv`) and calls F.scaled_dot_product_attention without enable_gqa.
void TorchtitanRepeatKv(const ModelSpec& m, PlanConstraints& c, std::vector<std::string>* notes) {
  const bool grouped = m.kv_heads > 0 && m.kv_heads < m.heads;
  if (!c.kernels || c.kernels->repeat_kv || !grouped || m.attention_kind == AttentionKind::kMla) {
    return;
  }
  c.kernels->repeat_kv = true;
  Note(notes, "repeat_kv=true (torchtitan's Llama repeats K/V to the query heads before SDPA)");
}

void Torchtitan(const ModelSpec& m, PlanConstraints& c, std::vector<std::string>* notes) {
  TorchtitanEager(c, notes);
  TorchtitanSyncTp(c, notes);
  if (c.recompute) {
    bool changed = false;
    for (Recompute& r : *c.recompute) {
      if (r == Recompute::kSelective) {
        r = Recompute::kOp;
        changed = true;
      }
    }
    if (changed) Note(notes, "recompute=op (torchtitan's selective is per-op SAC)");
  }
  DefaultSchedule("torchtitan", c, notes);
  TorchtitanLocalBatch(c, notes);
  TorchtitanSplitPoints(m, c, notes);
  TorchtitanPipelinedFsdp(c, notes);
  TorchtitanLockstepPipeline(c, notes);
  TorchtitanRepeatKv(m, c, notes);
}

}  // namespace

Framework FrameworkOf(const RunSpec& run) {
  if (run.framework != Framework::kUnstated) return run.framework;
  if (Contains(run.source, "torchtitan")) return Framework::kTorchtitan;
  if (Contains(run.source, "megatron") || Contains(run.source, "nemo")) {
    return Framework::kMegatron;
  }
  return Framework::kUnstated;
}

PlanConstraints ApplyFrameworkConventions(Framework framework, const ModelSpec& model,
                                          PlanConstraints plan, std::vector<std::string>* notes) {
  switch (framework) {
    case Framework::kMegatron:
      DefaultSchedule("Megatron-LM", plan, notes);
      break;
    case Framework::kTorchtitan:
      Torchtitan(model, plan, notes);
      break;
    case Framework::kDeepSpeed:
    case Framework::kMegatronDeepSpeed:
    case Framework::kNanotron:
    case Framework::kUnstated:
      break;
  }
  return plan;
}

}  // namespace paraplan
