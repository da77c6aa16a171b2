#include "config/knob_aliases.h"

#include <cctype>
#include <utility>

#include "core/error.h"

namespace paraplan {

namespace {

// Lower-case, '-' as '_', leading dashes dropped: "--micro-batch-size" → "micro_batch_size".
std::string Normalise(const std::string& name) {
  std::string out;
  for (char c : name) {
    if (c == '-' && out.empty()) continue;
    out += c == '-' ? '_' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

constexpr std::pair<const char*, const char*> kAliases[] = {
    {"mbs", "micro_batch"},
    {"micro_batch_size", "micro_batch"},
    {"microbatch", "micro_batch"},
    {"train_micro_batch_size_per_gpu", "micro_batch"},
    {"gbs", "global_batch"},
    {"global_batch_size", "global_batch"},
    {"train_batch_size", "global_batch"},
    {"batch_size", "global_batch"},
    {"tensor_parallel", "tp"},
    {"tensor_model_parallel_size", "tp"},
    {"tp_size", "tp"},
    {"pipeline_parallel", "pp"},
    {"pipeline_model_parallel_size", "pp"},
    {"pp_size", "pp"},
    {"data_parallel", "dp"},
    {"dp_size", "dp"},
    {"context_parallel", "cp"},
    {"context_parallel_size", "cp"},
    {"cp_size", "cp"},
    {"expert_parallel", "ep"},
    {"expert_model_parallel_size", "ep"},
    {"ep_size", "ep"},
    {"expert_tensor_parallel_size", "etp"},
    {"virtual_pipeline_model_parallel_size", "vpp"},
    {"num_layers_per_virtual_pipeline_stage", "vpp"},
    {"sp", "sequence_parallel"},
    {"torch_compile", "fusion"},
    {"compile", "fusion"},
    {"fused_kernels", "fusion"},
    {"enable_cuda_graph", "cuda_graphs"},
    {"cuda_graph", "cuda_graphs"},
    {"seq_length", "seq_len"},
    {"seqlen", "seq_len"},
    {"sequence_length", "seq_len"},
    {"ac", "recompute"},
    {"activation_checkpointing", "recompute"},
    {"recompute_granularity", "recompute"},
    {"zero_stage", "zero"},
    {"use_distributed_optimizer", "zero"},
    {"fsdp", "zero"},
    {"dtype", "precision"},
    {"pipeline_schedule", "schedule"},
    {"exp_avg_sq_dtype", "optimizer_moments"},
    {"use_precision_aware_optimizer", "optimizer_moments"},
    {"optimizer_cpu_offload", "optimizer_offload"},
    {"moe_apply_probs_on_input", "moe_probs"},
    {"ema_in_cpu", "ema"},
    // NeMo's optim.grad_sync_dtype (bf16 = grad_reduce_in_fp32=false), Megatron-LM's
    // --grad-reduce-in-bf16 and --accumulate-allreduce-grads-in-fp32.
    {"grad_sync_dtype", "grad_reduce_in_fp32"},
    {"grad_reduce_in_bf16", "grad_reduce_in_fp32"},
    {"accumulate_allreduce_grads_in_fp32", "grad_reduce_in_fp32"},
};

// Megatron-LM's flag names for the memory-recipe knobs (megatron/training/arguments.py:
// --exp-avg-dtype, --optimizer-offload-fraction, --recompute-modules) and the DeepSeek-V3
// report's terms (FP8 activation cache, EMA of the weights), taken with the same values.
constexpr std::pair<const char*, const char*> kAccepted[] = {
    {"exp_avg_dtype", "optimizer_moments"},
    {"optimizer_offload_fraction", "optimizer_offload"},
    {"recompute_module", "recompute_modules"},
    {"fp8_activation_cache", "fp8_act_cache"},
    // Megatron-Core's --cross-entropy-loss-fusion (NeMo's GPTConfig.cross_entropy_loss_fusion).
    {"cross_entropy_loss_fusion", "cross_entropy_fusion"},
    {"weights_ema", "ema"},
    // Megatron-Core's --moe-pad-expert-input-to-capacity (transformer_config.py).
    {"moe_pad_expert_input_to_capacity", "moe_pad_to_capacity"},
    // Megatron-Core's --moe-enable-deepep (with --moe-token-dispatcher-type flex).
    {"moe_enable_deepep", "moe_deepep"},
    // DeepSpeed's zero_optimization keys (deepspeed/runtime/zero/config.py).
    {"stage3_max_live_parameters", "zero3_max_live_params"},
    {"stage3_max_reuse_distance", "zero3_max_reuse_distance"},
};

bool IsGlue(char c) {
  return c == '=' || c == '|' || c == '/' || c == ',';
}

}  // namespace

std::string KnobForAlias(const std::string& name) {
  const std::string key = Normalise(name);
  for (const auto& [alias, knob] : kAliases) {
    if (key == alias) return knob;
  }
  return "";
}

std::string KnobForAcceptedAlias(const std::string& name) {
  const std::string key = Normalise(name);
  for (const auto& [alias, knob] : kAccepted) {
    if (key == alias) return knob;
  }
  return "";
}

std::vector<std::string> AcceptedAliasNames() {
  std::vector<std::string> names;
  for (const auto& [alias, knob] : kAccepted) names.emplace_back(alias);
  return names;
}

void CheckKnobSeparators(const std::string& text) {
  // Whitespace between two characters that are neither glue nor whitespace separates items.
  std::string corrected;
  bool separated = false;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c != ' ' && c != '\t') {
      corrected += c;
      continue;
    }
    size_t next = i;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
    const bool inside = !corrected.empty() && next < text.size() && !IsGlue(corrected.back()) &&
                        !IsGlue(text[next]);
    if (inside) {
      corrected += ',';
      separated = true;
    }
    i = next - 1;
  }
  if (!separated) return;
  throw InputError(SourceLocation{"--plan", 0, 0}, "",
                   "knobs are separated by commas, not spaces: got \"" + text +
                       "\"; did you mean \"" + corrected + "\"?");
}

}  // namespace paraplan
