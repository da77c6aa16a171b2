#include "report/step_result_json.h"

#include "core/units.h"
#include "plan/stage_layout.h"

namespace paraplan {

Json PlanToJson(const ParallelPlan& p) {
  Json j = Json::MakeObject();
  j.Set("tp", p.tp).Set("pp", p.pp).Set("dp", p.dp).Set("cp", p.cp).Set("ep", p.ep);
  j.Set("etp", p.etp).Set("vpp", p.vpp).Set("micro_batch", p.micro_batch);
  j.Set("global_batch", p.global_batch);
  j.Set("recompute", ToString(p.recompute)).Set("sequence_parallel", p.sequence_parallel);
  j.Set("zero", p.zero).Set("precision", ToString(p.precision));
  j.Set("schedule", ToString(p.schedule));
  j.Set("seq_len", p.seq_len);
  j.Set("moe_routing", ToString(p.moe_routing));
  j.Set("moe_capacity_factor", p.moe_capacity_factor).Set("moe_imbalance", p.moe_imbalance);
  j.Set("dp_comm_dtype", ToString(p.dp_comm_dtype)).Set("dp_bucket_MB", p.dp_bucket_MB);
  j.Set("placement", PlacementToString(p.placement));
  Json layers = Json::MakeArray();
  for (int64_t n : p.pp_layers) layers.Push(n);
  j.Set("pp_layers", std::move(layers));
  j.Set("overlap_grad_reduce", p.overlap_grad_reduce);
  j.Set("overlap_param_gather", p.overlap_param_gather);
  j.Set("overlap_tp_comm", p.overlap_tp_comm).Set("overlap_ep_comm", p.overlap_ep_comm);
  j.Set("overlap_pp_comm", p.overlap_pp_comm);
  if (p.zero3_keep_gathered) j.Set("zero3_keep_gathered", true);    // written only when set
  if (!p.grad_reduce_in_fp32) j.Set("grad_reduce_in_fp32", false);  // written only when set
  if (!p.kernels.IsDefault()) {  // written only when set (issue 14's framework profile)
    j.Set("fusion", ToString(p.kernels.fusion));
    j.Set("cuda_graphs", p.kernels.cuda_graphs);
    if (p.kernels.pp_lockstep) j.Set("pp_lockstep", true);
    if (p.kernels.repeat_kv) j.Set("repeat_kv", true);
    if (!p.kernels.MoeDefault()) {
      j.Set("moe_grouped_gemm", p.kernels.moe_grouped_gemm);
      j.Set("moe_router_fusion", p.kernels.moe_router_fusion);
      j.Set("moe_permute_fusion", p.kernels.moe_permute_fusion);
      j.Set("moe_pad_to_capacity", p.kernels.moe_pad_to_capacity);
      j.Set("moe_deepep", p.kernels.moe_deepep);
    }
  }
  if (!p.recipe.IsDefault()) {  // written only when set (issue 17's memory recipe)
    if (p.recipe.recompute_modules != 0) {
      j.Set("recompute_modules", RecomputeModulesToString(p.recipe.recompute_modules));
    }
    if (p.recipe.fp8_act_cache) j.Set("fp8_act_cache", true);
    j.Set("optimizer_moments", ToString(p.recipe.optimizer_moments));
    j.Set("optimizer_offload", p.recipe.optimizer_offload);
    j.Set("moe_probs", ToString(p.recipe.moe_probs));
    j.Set("ema", ToString(p.recipe.ema));
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
