// `--format torchtitan`: the best plan as torchtitan job-config TOML ([training], [parallelism],
// [activation_checkpoint], and float8 when the plan trains in fp8). Names follow torchtitan's
// JobConfig (torchtitan/config/job_config.py). A plan torchtitan cannot run (FrameworkViolations)
// is not exported: the reasons are printed instead.
#include "core/format.h"
#include "core/units.h"
#include "plan/framework_caps.h"
#include "report/export_check.h"
#include "report/layout_flags.h"
#include "report/plan_reporter.h"
#include "report/torchtitan_schedule.h"

namespace paraplan {

namespace {

// torchtitan picks the model shape by name and flavor (torchtitan/models/*/__init__.py); the
// shipped Llama 3 files match its llama3 flavors, other models need a flavor registered with the
// shape written above the section.
void Model(std::ostream& out, const ParallelPlan& p, const PlanReportContext& ctx) {
  const std::string converters =
      p.precision == Precision::kFp8 ? "converters = [\"quantize.linear.float8\"]\n" : "";
  if (!ctx.model) {
    if (!converters.empty()) out << "[model]\n" << converters << "\n";
    return;
  }
  const ModelSpec& m = *ctx.model;
  // The torchtitan model family: by the model's own family name where torchtitan has it, else
  // the family with the same layer structure (llama4 for GQA MoE, llama3 for dense).
  std::string name = m.IsMoe() ? "llama4" : "llama3";
  if (m.name.rfind("qwen3", 0) == 0) name = "qwen3";
  if (m.attention_kind == AttentionKind::kMla) name = "deepseek_v3";
  std::string flavor = "paraplan-" + m.name;
  if (m.name == "llama3-8b") flavor = "8B";
  if (m.name == "llama3-70b") flavor = "70B";
  if (m.name == "llama3.1-405b") flavor = "405B";
  out << "# model shape: n_layers = " << m.layers << ", dim = " << m.hidden
      << ", n_heads = " << m.heads << ", n_kv_heads = " << m.kv_heads
      << ", ffn_hidden = " << m.ffn_hidden << ", vocab_size = " << m.vocab;
  if (m.IsMoe()) {
    out << ", num_experts = " << m.moe->experts << ", top_k = " << m.moe->top_k
        << ", moe_ffn_hidden = " << m.moe->expert_ffn_hidden;
  }
  out << "\n[model]\nname = \"" << name << "\"\nflavor = \"" << flavor << "\"\n"
      << converters << "\n";
}

void Training(std::ostream& out, const ParallelPlan& p, const PlanReportContext& ctx) {
  // Without pipelining torchtitan accumulates local batches; with it, the local batch is split
  // into micro-batches of pipeline_parallel_microbatch_size.
  const int64_t local = p.pp > 1 ? p.global_batch / p.dp : p.micro_batch;
  out << "[training]\n"
      << "local_batch_size = " << local << "\n"
      << "global_batch_size = " << p.global_batch << "\n"
      << "seq_len = " << EffectiveSeqLen(p, ctx) << "\n\n";
  // torch.compile is its own section ([compile] enable, components; job_config.py Compile).
  if (p.kernels.fusion == Fusion::kCompile) {
    out << "[compile]\nenable = true\ncomponents = [\"model\", \"loss\"]\n\n";
  }
}

void Parallelism(std::ostream& out, const StepResult& r, const PlanReportContext& ctx) {
  const ParallelPlan& p = r.plan;
  // ZeRO 0 = DDP (replicate); ZeRO 2 ~ FSDP without resharding after forward; ZeRO 3 = FSDP.
  const bool shard = p.zero >= 1;
  out << "[parallelism]\n"
      << "data_parallel_replicate_degree = " << (shard ? 1 : p.dp) << "\n"
      << "data_parallel_shard_degree = " << (shard ? p.dp : 1) << "\n";
  if (shard) {
    out << "fsdp_reshard_after_forward = \"" << (p.zero == 3 ? "always" : "never") << "\"\n";
  }
  out << "tensor_parallel_degree = " << p.tp << "\n";
  if (p.overlap_tp_comm) out << "enable_async_tensor_parallel = true\n";
  out << "pipeline_parallel_degree = " << p.pp << "\n";
  if (p.pp > 1) {
    out << "pipeline_parallel_schedule = \"" << TorchtitanScheduleName(p) << "\"\n"
        << "pipeline_parallel_microbatch_size = " << p.micro_batch << "\n";
    const std::vector<int64_t> layout = ResultLayout(r);
    if (!layout.empty() && !IsDefaultLayout(r, layout)) {
      out << "module_fqns_per_model_part = " << TorchtitanModuleFqns(layout) << "\n";
    } else if (ctx.model_layers > 0) {
      // torchtitan makes ceil((layers + first_less + last_less) / layers_per_stage) stages; the
      // "less" weights (default 1 each, for the embedding and the output) are zeroed so that it
      // makes exactly pp x vpp stages (torchtitan/distributed/pipeline_parallel.py, pipeline_llm).
      out << "pipeline_parallel_layers_per_stage = " << ctx.model_layers / (p.pp * p.vpp) << "\n"
          << "pipeline_parallel_first_stage_less_layers = 0\n"
          << "pipeline_parallel_last_stage_less_layers = 0\n";
    }
  }
  out << "context_parallel_degree = " << p.cp << "\n";
  if (ctx.moe) {
    out << "expert_parallel_degree = " << p.ep << "\n"
        << "expert_tensor_parallel_degree = " << p.etp << "\n";
  }
  out << "\n";
}

void Checkpointing(std::ostream& out, const ParallelPlan& p) {
  // torchtitan's selective mode is per-op SAC (recompute=op).
  const bool op = p.recompute == Recompute::kOp;
  out << "[activation_checkpoint]\n"
      << "mode = \"" << (op ? "selective" : ToString(p.recompute)) << "\"\n";
  if (op) out << "selective_ac_option = \"op\"\n";
}

class TorchtitanReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    if (result.plans.empty()) {
      out() << "# paraplan found no plan that fits; nothing to launch.\n";
      return;
    }
    const StepResult& best = result.plans.front();
    const ParallelPlan& p = best.plan;
    if (WriteNotRunnable(out(), Framework::kTorchtitan, ctx, p)) return;
    // torchtitan 238fa99 replicates (DDP) only on a 1-D mesh: "DDP has not supported > 1D
    // parallelism" (models/*/infra/parallelize.py); current torchtitan (--format torchtitan) runs
    // it.
    if (p.zero == 0 && p.dp > 1 && p.tp * p.pp * p.cp > 1) {
      out() << "# NOT RUNNABLE in torchtitan 238fa99 (the TOML version): zero=0 (DDP) with tp, pp "
               "or cp > 1: \"DDP has not supported > 1D parallelism\" "
               "(models/llama3/infra/parallelize.py); --format torchtitan writes it for current "
               "torchtitan.\n";
      return;
    }
    WriteBestPlanHeader(out(), "torchtitan 238fa99 job config", ctx, best);
    out() << "\n";
    Model(out(), p, ctx);
    Training(out(), p, ctx);
    Parallelism(out(), best, ctx);
    Checkpointing(out(), p);
    if (p.precision == Precision::kFp8) {
      out() << "\n[quantize.linear.float8]\nrecipe_name = \"tensorwise\"\n";
      if (p.zero >= 1) out() << "enable_fsdp_float8_all_gather = true\n";
    }
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeTorchtitanReporter(std::ostream& out) {
  return std::make_unique<TorchtitanReporter>(out);
}

}  // namespace paraplan
