#include "report/step_result_json.h"

#include "core/units.h"
#include "plan/knob_table.h"
#include "plan/stage_layout.h"

namespace paraplan {

namespace {

// The switches of one recipe, in the knob table's order, each as its row's SwitchJson says.
void AddSwitches(const ParallelPlan& p, RecipePart part, Json& j) {
  bool moe_changed = false;  // any MoE kernel switch off its default: all of them are written
  for (const KnobRow& row : KnobTable()) {
    const RecipeSwitch& s = row.recipe_switch;
    if (s.In(part) && s.json == SwitchJson::kMoeGroup) {
      moe_changed = moe_changed || s.Of(p.kernels, p.recipe) != s.Default();
    }
  }
  for (const KnobRow& row : KnobTable()) {
    const RecipeSwitch& s = row.recipe_switch;
    if (!s.In(part)) continue;
    const bool value = s.Of(p.kernels, p.recipe);
    const bool write = s.json == SwitchJson::kAlways ||
                       (s.json == SwitchJson::kMoeGroup ? moe_changed : value != s.Default());
    if (write) j.Set(KnobName(row.knob), value);
  }
}

}  // namespace

Json PlanToJson(const ParallelPlan& p) {
  Json j = Json::MakeObject();
  j.Set(KnobName(Knob::kTp), p.tp)
      .Set(KnobName(Knob::kPp), p.pp)
      .Set(KnobName(Knob::kDp), p.dp)
      .Set(KnobName(Knob::kCp), p.cp)
      .Set(KnobName(Knob::kEp), p.ep);
  j.Set(KnobName(Knob::kEtp), p.etp)
      .Set(KnobName(Knob::kVpp), p.vpp)
      .Set(KnobName(Knob::kMicroBatch), p.micro_batch);
  j.Set(KnobName(Knob::kGlobalBatch), p.global_batch);
  j.Set(KnobName(Knob::kRecompute), ToString(p.recompute))
      .Set(KnobName(Knob::kSequenceParallel), p.sequence_parallel);
  j.Set(KnobName(Knob::kZero), p.zero).Set(KnobName(Knob::kPrecision), ToString(p.precision));
  j.Set(KnobName(Knob::kSchedule), ToString(p.schedule));
  j.Set(KnobName(Knob::kSeqLen), p.seq_len);
  j.Set(KnobName(Knob::kMoeRouting), ToString(p.moe_routing));
  j.Set(KnobName(Knob::kMoeCapacityFactor), p.moe_capacity_factor)
      .Set(KnobName(Knob::kMoeImbalance), p.moe_imbalance);
  j.Set(KnobName(Knob::kDpCommDtype), ToString(p.dp_comm_dtype))
      .Set(KnobName(Knob::kDpBucketMB), p.dp_bucket_MB);
  j.Set(KnobName(Knob::kPlacement), PlacementToString(p.placement));
  Json layers = Json::MakeArray();
  for (int64_t n : p.pp_layers) layers.Push(n);
  j.Set(KnobName(Knob::kPpLayers), std::move(layers));
  j.Set(KnobName(Knob::kOverlapGradReduce), p.overlap_grad_reduce);
  j.Set(KnobName(Knob::kOverlapParamGather), p.overlap_param_gather);
  j.Set(KnobName(Knob::kOverlapTpComm), p.overlap_tp_comm)
      .Set(KnobName(Knob::kOverlapEpComm), p.overlap_ep_comm);
  j.Set(KnobName(Knob::kOverlapPpComm), p.overlap_pp_comm);
  if (p.zero3_keep_gathered)
    j.Set(KnobName(Knob::kZero3KeepGathered), true);  // written only when set
  if (!p.grad_reduce_in_fp32)
    j.Set(KnobName(Knob::kGradReduceInFp32), false);  // written only when set
  if (!p.kernels.IsDefault()) {  // written only when set (issue 14's framework profile)
    j.Set(KnobName(Knob::kFusion), ToString(p.kernels.fusion));
    AddSwitches(p, RecipePart::kKernels, j);
    if (p.kernels.fp8_recipe != Fp8Recipe::kDelayed) {
      j.Set(KnobName(Knob::kFp8Recipe), ToString(p.kernels.fp8_recipe));
    }
    if (p.zero == 3 && p.kernels.DeepSpeedZero3()) {
      j.Set(KnobName(Knob::kZero3MaxLiveParams), p.kernels.zero3_max_live_params);
      j.Set(KnobName(Knob::kZero3MaxReuseDistance), p.kernels.zero3_max_reuse_distance);
    }
    if (p.kernels.packed_doc_tokens > 0) {
      j.Set(KnobName(Knob::kPackedDocTokens), p.kernels.packed_doc_tokens);
    }
  }
  if (!p.recipe.IsDefault()) {  // written only when set (issue 17's memory recipe)
    if (p.recipe.recompute_modules != 0) {
      j.Set(KnobName(Knob::kRecomputeModules),
            RecomputeModulesToString(p.recipe.recompute_modules));
    }
    AddSwitches(p, RecipePart::kMemory, j);
    j.Set(KnobName(Knob::kOptimizerMoments), ToString(p.recipe.optimizer_moments));
    j.Set(KnobName(Knob::kOptimizerOffload), p.recipe.optimizer_offload);
    j.Set(KnobName(Knob::kMoeProbs), ToString(p.recipe.moe_probs));
    j.Set(KnobName(Knob::kEma), ToString(p.recipe.ema));
  }
  return j;
}

namespace {

Json StageToJson(const StageMemory& m, const StageLoad* load) {
  Json j = Json::MakeObject();
  j.Set("stage", m.stage);
  if (load) {  // the stage's part of the layout and its per-micro-batch compute
    j.Set("layers", load->layers);
    j.Set("forward_s", load->forward_s).Set("backward_s", load->backward_s);
  }
  j.Set("weights_GiB", BytesToGiB(m.weights_bytes));
  j.Set("grads_GiB", BytesToGiB(m.grads_bytes));
  j.Set("optimizer_GiB", BytesToGiB(m.optimizer_bytes));
  j.Set("activations_GiB", BytesToGiB(m.activations_bytes));
  j.Set("other_GiB", BytesToGiB(m.other_bytes));
  j.Set("total_GiB", BytesToGiB(m.TotalBytes()));
  // After DESIGN.md's keys: other_GiB by term, and the EMA's part of optimizer_GiB (issue 17).
  j.Set("logits_GiB", BytesToGiB(m.logits_bytes));
  j.Set("buffers_GiB", BytesToGiB(m.buffers_bytes));
  j.Set("reserve_GiB", BytesToGiB(m.reserve_bytes));
  j.Set("fragmentation_GiB", BytesToGiB(m.fragmentation_bytes));
  j.Set("ema_GiB", BytesToGiB(m.ema_bytes));
  return j;
}

Json TimeToJson(const TimeBreakdown& t) {
  Json j = Json::MakeObject();
  j.Set("compute_s", t.compute_s).Set("bubble_s", t.bubble_s).Set("tp_comm_s", t.tp_comm_s);
  j.Set("cp_comm_s", t.cp_comm_s).Set("ep_comm_s", t.ep_comm_s).Set("pp_comm_s", t.pp_comm_s);
  j.Set("dp_comm_exposed_s", t.dp_comm_exposed_s).Set("optimizer_s", t.optimizer_s);
  return j;
}

}  // namespace

Json StepResultToJson(const StepResult& r) {
  Json j = Json::MakeObject();
  j.Set("plan", PlanToJson(r.plan));
  j.Set("fits", r.fits);
  j.Set("step_time_s", r.step_time_s);
  j.Set("tokens_per_s_per_gpu", r.tokens_per_s_per_gpu);
  j.Set("mfu", r.mfu).Set("hfu", r.hfu);
  j.Set("memory_GiB", BytesToGiB(r.peak_memory_bytes));
  Json memory = Json::MakeObject();
  memory.Set("capacity_GiB", BytesToGiB(r.memory_capacity_bytes));
  Json stages = Json::MakeArray();
  for (size_t s = 0; s < r.memory.size(); ++s) {
    stages.Push(StageToJson(r.memory[s], s < r.loads.size() ? &r.loads[s] : nullptr));
  }
  memory.Set("per_stage", std::move(stages));
  j.Set("memory", std::move(memory));
  j.Set("time", TimeToJson(r.time));
  if (!r.virtual_stage_layers.empty()) {
    Json layout = Json::MakeObject();
    Json layers = Json::MakeArray();
    for (int64_t n : r.virtual_stage_layers) layers.Push(n);
    layout.Set("virtual_stage_layers", std::move(layers));
    layout.Set("megatron",
               MegatronLayoutString(r.virtual_stage_layers, r.mtp_virtual_stage, r.mtp_layers));
    j.Set("layout", std::move(layout));
  }
  j.Set("simulated", r.simulated);
  Json notes = Json::MakeArray();
  for (const std::string& n : r.notes) notes.Push(n);
  j.Set("notes", std::move(notes));
  return j;
}

}  // namespace paraplan
