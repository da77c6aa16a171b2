#include "plan/plan_string.h"

#include "core/format.h"
#include "plan/knob_table.h"
#include "plan/stage_layout.h"

namespace paraplan {

namespace {

class KnobWriter {
 public:
  void Add(Knob knob, const std::string& value) { items_.emplace_back(KnobName(knob), value); }
  void Add(Knob knob, int64_t value) { Add(knob, std::to_string(value)); }
  void Add(Knob knob, bool value) { Add(knob, std::string(value ? "true" : "false")); }
  void Add(Knob knob, const char* value) { Add(knob, std::string(value)); }
  PlanKnobItems Take() { return std::move(items_); }

 private:
  PlanKnobItems items_;
};

// "3/4/4/2": the slash-separated lists pp_layers and pp_split_points take.
std::string SlashList(const std::vector<int64_t>& values) {
  std::string text;
  for (int64_t n : values) text += (text.empty() ? "" : "/") + std::to_string(n);
  return text;
}

// The switches of one recipe that differ from their defaults, in the knob table's order.
void AddSwitches(const ParallelPlan& p, RecipePart part, KnobWriter& w) {
  for (const KnobRow& row : KnobTable()) {
    if (!row.recipe_switch.In(part)) continue;
    const bool value = row.recipe_switch.Of(p.kernels, p.recipe);
    if (value != row.recipe_switch.Default()) w.Add(row.knob, value);
  }
}

void AddRareKnobs(const ParallelPlan& p, KnobWriter& w) {
  const ParallelPlan d;
  if (p.moe_routing != d.moe_routing) w.Add(Knob::kMoeRouting, ToString(p.moe_routing));
  if (p.moe_capacity_factor != d.moe_capacity_factor) {
    w.Add(Knob::kMoeCapacityFactor, FormatShortest(p.moe_capacity_factor));
  }
  if (p.moe_imbalance != d.moe_imbalance) {
    w.Add(Knob::kMoeImbalance, FormatShortest(p.moe_imbalance));
  }
  if (p.dp_comm_dtype != d.dp_comm_dtype) w.Add(Knob::kDpCommDtype, ToString(p.dp_comm_dtype));
  if (p.dp_bucket_MB != d.dp_bucket_MB) w.Add(Knob::kDpBucketMB, FormatShortest(p.dp_bucket_MB));
  if (p.placement != d.placement) w.Add(Knob::kPlacement, PlacementToString(p.placement));
  if (!p.pp_layers.empty() && p.layout.mtp_stage >= 0) {
    // A Megatron-LM layout that places the MTP modules ('m') re-runs as that layout; one 'm'
    // stands for them (how many there are is the model's mtp_layers).
    w.Add(Knob::kPpLayout, "'" + MegatronLayoutString(p.pp_layers, p.layout.mtp_stage, 1) + "'");
  } else if (!p.pp_layers.empty()) {
    w.Add(Knob::kPpLayers, SlashList(p.pp_layers));
  }
  // A layout rule (torchtitan split points, Megatron-LM's first/last-stage and accounting flags)
  // stays a rule: the re-run resolves it as this run did.
  const StageLayoutRule& rule = p.layout;
  if (!rule.split_points.empty()) w.Add(Knob::kPpSplitPoints, SlashList(rule.split_points));
  if (rule.first_stage_layers > 0) w.Add(Knob::kPpFirstLayers, rule.first_stage_layers);
  if (rule.last_stage_layers > 0) w.Add(Knob::kPpLastLayers, rule.last_stage_layers);
  if (rule.account_embedding) w.Add(Knob::kPpAccountEmbedding, true);
  if (rule.account_loss) w.Add(Knob::kPpAccountLoss, true);
  if (rule.even_split) w.Add(Knob::kPpEvenSplit, true);
  if (p.kernels.fusion != d.kernels.fusion) w.Add(Knob::kFusion, ToString(p.kernels.fusion));
  AddSwitches(p, RecipePart::kKernels, w);
  if (p.zero == 3 && p.kernels.zero3_max_live_params > 0) {  // read under ZeRO-3 only
    w.Add(Knob::kZero3MaxLiveParams, FormatShortest(p.kernels.zero3_max_live_params));
  }
  if (p.zero == 3 && p.kernels.zero3_max_reuse_distance > 0) {
    w.Add(Knob::kZero3MaxReuseDistance, FormatShortest(p.kernels.zero3_max_reuse_distance));
  }
  if (p.kernels.fp8_recipe != d.kernels.fp8_recipe) {
    w.Add(Knob::kFp8Recipe, ToString(p.kernels.fp8_recipe));
  }
  if (p.kernels.packed_doc_tokens > 0) {
    w.Add(Knob::kPackedDocTokens, FormatShortest(p.kernels.packed_doc_tokens));
  }
  // The memory recipe (issue 17): a re-run must keep it.
  if (p.recipe.recompute_modules != 0) {
    w.Add(Knob::kRecomputeModules, RecomputeModulesToString(p.recipe.recompute_modules));
  }
  AddSwitches(p, RecipePart::kMemory, w);
  if (p.recipe.optimizer_moments != d.recipe.optimizer_moments) {
    w.Add(Knob::kOptimizerMoments, ToString(p.recipe.optimizer_moments));
  }
  if (p.recipe.optimizer_offload != d.recipe.optimizer_offload) {
    w.Add(Knob::kOptimizerOffload, FormatShortest(p.recipe.optimizer_offload));
  }
  if (p.recipe.moe_probs != d.recipe.moe_probs)
    w.Add(Knob::kMoeProbs, ToString(p.recipe.moe_probs));
  if (p.recipe.ema != d.recipe.ema) w.Add(Knob::kEma, ToString(p.recipe.ema));
  if (p.zero3_keep_gathered != d.zero3_keep_gathered) {
    w.Add(Knob::kZero3KeepGathered, p.zero3_keep_gathered);
  }
  if (p.grad_reduce_in_fp32 != d.grad_reduce_in_fp32) {
    w.Add(Knob::kGradReduceInFp32, p.grad_reduce_in_fp32);
  }
}

}  // namespace

PlanKnobItems PlanKnobs(const ParallelPlan& p, int64_t model_seq_len) {
  KnobWriter w;
  w.Add(Knob::kTp, p.tp);
  w.Add(Knob::kPp, p.pp);
  w.Add(Knob::kDp, p.dp);
  w.Add(Knob::kCp, p.cp);
  w.Add(Knob::kEp, p.ep);
  w.Add(Knob::kEtp, p.etp);
  w.Add(Knob::kVpp, p.vpp);
  w.Add(Knob::kMicroBatch, p.micro_batch);
  w.Add(Knob::kGlobalBatch, p.global_batch);
  w.Add(Knob::kSeqLen, p.seq_len > 0 ? p.seq_len : model_seq_len);
  w.Add(Knob::kRecompute, ToString(p.recompute));
  w.Add(Knob::kSequenceParallel, p.sequence_parallel);
  w.Add(Knob::kZero, static_cast<int64_t>(p.zero));
  w.Add(Knob::kPrecision, ToString(p.precision));
  w.Add(Knob::kSchedule, ToString(p.schedule));
  w.Add(Knob::kOverlapGradReduce, p.overlap_grad_reduce);
  w.Add(Knob::kOverlapParamGather, p.overlap_param_gather);
  w.Add(Knob::kOverlapTpComm, p.overlap_tp_comm);
  w.Add(Knob::kOverlapEpComm, p.overlap_ep_comm);
  w.Add(Knob::kOverlapPpComm, p.overlap_pp_comm);
  AddRareKnobs(p, w);
  return w.Take();
}

std::string PlanString(const ParallelPlan& p, int64_t model_seq_len) {
  std::string text;
  for (const auto& [knob, value] : PlanKnobs(p, model_seq_len)) {
    if (!text.empty()) text += ',';
    text += knob;
    text += '=';
    text += value;
  }
  return text;
}

}  // namespace paraplan
