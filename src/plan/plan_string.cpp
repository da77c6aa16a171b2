#include "plan/plan_string.h"

#include "core/format.h"
#include "plan/stage_layout.h"

namespace paraplan {

namespace {

class KnobWriter {
 public:
  void Add(const char* knob, const std::string& value) {
    text_ += (text_.empty() ? "" : ",") + std::string(knob) + "=" + value;
  }
  void Add(const char* knob, int64_t value) { Add(knob, std::to_string(value)); }
  void Add(const char* knob, bool value) { Add(knob, std::string(value ? "true" : "false")); }
  void Add(const char* knob, const char* value) { Add(knob, std::string(value)); }
  std::string Take() { return std::move(text_); }

 private:
  std::string text_;
};

// "3/4/4/2": the slash-separated lists pp_layers and pp_split_points take.
std::string SlashList(const std::vector<int64_t>& values) {
  std::string text;
  for (int64_t n : values) text += (text.empty() ? "" : "/") + std::to_string(n);
  return text;
}

void AddRareKnobs(const ParallelPlan& p, KnobWriter& w) {
  const ParallelPlan d;
  if (p.moe_routing != d.moe_routing) w.Add("moe_routing", ToString(p.moe_routing));
  if (p.moe_capacity_factor != d.moe_capacity_factor) {
    w.Add("moe_capacity_factor", FormatShortest(p.moe_capacity_factor));
  }
  if (p.moe_imbalance != d.moe_imbalance) {
    w.Add("moe_imbalance", FormatShortest(p.moe_imbalance));
  }
  if (p.dp_comm_dtype != d.dp_comm_dtype) w.Add("dp_comm_dtype", ToString(p.dp_comm_dtype));
  if (p.dp_bucket_MB != d.dp_bucket_MB) w.Add("dp_bucket_MB", FormatShortest(p.dp_bucket_MB));
  if (p.placement != d.placement) w.Add("placement", PlacementToString(p.placement));
  if (!p.pp_layers.empty() && p.layout.mtp_stage >= 0) {
    // A Megatron-LM layout that places the MTP modules ('m') re-runs as that layout; one 'm'
    // stands for them (how many there are is the model's mtp_layers).
    w.Add("pp_layout", "'" + MegatronLayoutString(p.pp_layers, p.layout.mtp_stage, 1) + "'");
  } else if (!p.pp_layers.empty()) {
    w.Add("pp_layers", SlashList(p.pp_layers));
  }
  // A layout rule (torchtitan split points, Megatron-LM's first/last-stage and accounting flags)
  // stays a rule: the re-run resolves it as this run did.
  const StageLayoutRule& rule = p.layout;
  if (!rule.split_points.empty()) w.Add("pp_split_points", SlashList(rule.split_points));
  if (rule.first_stage_layers > 0) w.Add("pp_first_layers", rule.first_stage_layers);
  if (rule.last_stage_layers > 0) w.Add("pp_last_layers", rule.last_stage_layers);
  if (rule.account_embedding) w.Add("pp_account_embedding", true);
  if (rule.account_loss) w.Add("pp_account_loss", true);
  if (p.kernels.fusion != d.kernels.fusion) w.Add("fusion", ToString(p.kernels.fusion));
  if (p.kernels.cuda_graphs) w.Add("cuda_graphs", true);
  if (p.kernels.pp_lockstep) w.Add("pp_lockstep", true);
  if (p.kernels.repeat_kv) w.Add("repeat_kv", true);
  if (p.kernels.moe_grouped_gemm != d.kernels.moe_grouped_gemm) {
    w.Add("moe_grouped_gemm", p.kernels.moe_grouped_gemm);
  }
  if (p.kernels.moe_router_fusion) w.Add("moe_router_fusion", true);
  if (p.kernels.moe_permute_fusion) w.Add("moe_permute_fusion", true);
  if (p.kernels.moe_pad_to_capacity) w.Add("moe_pad_to_capacity", true);
  if (p.kernels.moe_deepep) w.Add("moe_deepep", true);
  // The memory recipe (issue 17): a re-run must keep it.
  if (p.recipe.recompute_modules != 0) {
    w.Add("recompute_modules", RecomputeModulesToString(p.recipe.recompute_modules));
  }
  if (p.recipe.fp8_act_cache) w.Add("fp8_act_cache", true);
  if (p.recipe.optimizer_moments != d.recipe.optimizer_moments) {
    w.Add("optimizer_moments", ToString(p.recipe.optimizer_moments));
  }
  if (p.recipe.optimizer_offload != d.recipe.optimizer_offload) {
    w.Add("optimizer_offload", FormatShortest(p.recipe.optimizer_offload));
  }
  if (p.recipe.moe_probs != d.recipe.moe_probs) w.Add("moe_probs", ToString(p.recipe.moe_probs));
  if (p.recipe.ema != d.recipe.ema) w.Add("ema", ToString(p.recipe.ema));
  if (p.zero3_keep_gathered != d.zero3_keep_gathered) {
    w.Add("zero3_keep_gathered", p.zero3_keep_gathered);
  }
  if (p.grad_reduce_in_fp32 != d.grad_reduce_in_fp32) {
    w.Add("grad_reduce_in_fp32", p.grad_reduce_in_fp32);
  }
}

}  // namespace

std::string PlanString(const ParallelPlan& p, int64_t model_seq_len) {
  KnobWriter w;
  w.Add("tp", p.tp);
  w.Add("pp", p.pp);
  w.Add("dp", p.dp);
  w.Add("cp", p.cp);
  w.Add("ep", p.ep);
  w.Add("etp", p.etp);
  w.Add("vpp", p.vpp);
  w.Add("micro_batch", p.micro_batch);
  w.Add("global_batch", p.global_batch);
  w.Add("seq_len", p.seq_len > 0 ? p.seq_len : model_seq_len);
  w.Add("recompute", ToString(p.recompute));
  w.Add("sequence_parallel", p.sequence_parallel);
  w.Add("zero", static_cast<int64_t>(p.zero));
  w.Add("precision", ToString(p.precision));
  w.Add("schedule", ToString(p.schedule));
  w.Add("overlap_grad_reduce", p.overlap_grad_reduce);
  w.Add("overlap_param_gather", p.overlap_param_gather);
  w.Add("overlap_tp_comm", p.overlap_tp_comm);
  w.Add("overlap_ep_comm", p.overlap_ep_comm);
  w.Add("overlap_pp_comm", p.overlap_pp_comm);
  AddRareKnobs(p, w);
  return w.Take();
}

}  // namespace paraplan
