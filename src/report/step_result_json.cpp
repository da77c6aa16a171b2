#include "report/step_result_json.h"

#include "core/units.h"
#include "plan/knob_table.h"
#include "plan/stage_layout.h"

namespace paraplan {

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
    j.Set(KnobName(Knob::kCudaGraphs), p.kernels.cuda_graphs);
    if (p.kernels.pp_lockstep) j.Set(KnobName(Knob::kPpLockstep), true);
    if (p.kernels.repeat_kv) j.Set(KnobName(Knob::kRepeatKv), true);
    if (p.kernels.zero1_all_reduce) j.Set(KnobName(Knob::kZero1AllReduce), true);
    if (p.kernels.fp32_grad_accum_pass) j.Set(KnobName(Knob::kFp32GradAccumPass), true);
    if (p.kernels.fused_norm) j.Set(KnobName(Knob::kFusedNorm), true);
    if (p.kernels.sp_dim1_copies) j.Set(KnobName(Knob::kSpDim1Copies), true);
    if (p.kernels.fp8_recipe != Fp8Recipe::kDelayed) {
      j.Set(KnobName(Knob::kFp8Recipe), ToString(p.kernels.fp8_recipe));
    }
    if (!p.kernels.MoeDefault()) {
      j.Set(KnobName(Knob::kMoeGroupedGemm), p.kernels.moe_grouped_gemm);
      j.Set(KnobName(Knob::kMoeRouterFusion), p.kernels.moe_router_fusion);
      j.Set(KnobName(Knob::kMoePermuteFusion), p.kernels.moe_permute_fusion);
      j.Set(KnobName(Knob::kMoePadToCapacity), p.kernels.moe_pad_to_capacity);
      j.Set(KnobName(Knob::kMoeDeepep), p.kernels.moe_deepep);
    }
  }
  if (!p.recipe.IsDefault()) {  // written only when set (issue 17's memory recipe)
    if (p.recipe.recompute_modules != 0) {
      j.Set(KnobName(Knob::kRecomputeModules),
            RecomputeModulesToString(p.recipe.recompute_modules));
    }
    if (p.recipe.fp8_act_cache) j.Set(KnobName(Knob::kFp8ActCache), true);
    if (p.recipe.cross_entropy_fusion) j.Set(KnobName(Knob::kCrossEntropyFusion), true);
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
