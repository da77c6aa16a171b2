#include "plan/framework_launch_rules.h"

namespace paraplan {

namespace {

constexpr const char* kMegatron = "Megatron-LM d98e8a6 (2026-08-22)";
constexpr const char* kTitan = "torchtitan b5bcd76 (2026-08-21) and 238fa99 (2026-02-23)";
constexpr const char* kTransformerConfig = "megatron/core/transformer/transformer_config.py";

bool EpOverlapWithoutVpp(const ModelSpec*, const ParallelPlan& p) {
  return p.overlap_ep_comm && p.pp > 1 && p.vpp < 2;
}
bool EpOverlapWithoutEp(const ModelSpec*, const ParallelPlan& p) {
  return p.overlap_ep_comm && p.ep < 2;
}
bool EpOverlapWithFullRecompute(const ModelSpec*, const ParallelPlan& p) {
  return p.overlap_ep_comm && p.recompute == Recompute::kFull;
}
bool EpOverlapWithMtp(const ModelSpec* m, const ParallelPlan& p) {
  return p.overlap_ep_comm && m != nullptr && m->mtp_layers > 1;
}
bool MoeBiasWithEtp(const ModelSpec* m, const ParallelPlan& p) {
  return m != nullptr && m->IsMoe() && m->linear_bias && p.etp > 1;
}
bool AsyncTpWithoutCompile(const ModelSpec*, const ParallelPlan& p) {
  return p.overlap_tp_comm && p.tp > 1 && p.kernels.fusion != Fusion::kCompile;
}

}  // namespace

const std::vector<LaunchRule>& LaunchRules() {
  using Fw = Framework;
  static const std::vector<LaunchRule> kRules = {
      {"megatron/ep-overlap-needs-vpp", Fw::kMegatron, kMegatron, kTransformerConfig,
       "overlap_ep_comm=true with pp > 1 needs virtual pipeline stages (vpp > 1): \"If enabling "
       "EP A2A overlap, virtual_pipeline_model_parallel_size must be specified\"",
       EpOverlapWithoutVpp},
      {"megatron/ep-overlap-needs-ep", Fw::kMegatron, kMegatron, kTransformerConfig,
       "overlap_ep_comm=true needs ep > 1 (\"only supported with expert model parallelism\")",
       EpOverlapWithoutEp},
      {"megatron/ep-overlap-no-full-recompute", Fw::kMegatron, kMegatron, kTransformerConfig,
       "overlap_ep_comm=true with recompute=full: \"disable full recomputation when enabling "
       "overlap_moe_expert_parallel_comm\"",
       EpOverlapWithFullRecompute},
      {"megatron/ep-overlap-mtp-at-most-1", Fw::kMegatron, kMegatron, kTransformerConfig,
       "overlap_ep_comm=true: \"MTP supports at most one layer\"", EpOverlapWithMtp},
      {"megatron/moe-bias-needs-etp1", Fw::kMegatron, kMegatron, kTransformerConfig,
       "etp > 1 with a model whose linear layers have biases (linear_bias: true): \"Bias in Moe is "
       "only supported when ETP==1\"",
       MoeBiasWithEtp},
      {"torchtitan/async-tp-needs-compile", Fw::kTorchtitan, kTitan,
       "torchtitan/config (CompileConfig, b5bcd76); models/llama3/parallelize.py (238fa99)",
       "overlap_tp_comm=true (async TP) needs torch.compile (--plan fusion=compile): \"Async TP "
       "requires 'model' in --compile.components and --compile.enable\"",
       AsyncTpWithoutCompile},
  };
  return kRules;
}

void AddLaunchRuleViolations(Framework framework, const ModelSpec* model, const ParallelPlan& plan,
                             std::vector<std::string>& out) {
  for (const LaunchRule& rule : LaunchRules()) {
    if (rule.framework != framework || !rule.broken(model, plan)) continue;
    out.push_back(std::string(rule.name) + ": " + rule.reason + " (" + rule.version + ", " +
                  rule.source + ")");
  }
}

}  // namespace paraplan
