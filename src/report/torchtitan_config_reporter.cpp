// `--format torchtitan-py`: the best plan as a current torchtitan run configuration (b5bcd76,
// 2026-08-21): a Python module whose function returns `Trainer.Config`, the model's registry
// config changed to the plan (torchtitan/config/configs.py, torchtitan/trainer.py). torchtitan
// reads no TOML since 9810191 (2026-02-23); `--format torchtitan` writes the job file of the
// last TOML version (torchtitan_reporter.cpp). A plan torchtitan cannot run (FrameworkViolations)
// is not exported: the reasons are printed instead.
#include "core/units.h"
#include "plan/framework_caps.h"
#include "report/export_check.h"
#include "report/layout_flags.h"
#include "report/plan_reporter.h"
#include "report/torchtitan_schedule.h"

namespace paraplan {

namespace {

// The registry config a shipped model starts from (torchtitan/models/*/config_registry.py) and
// its model_registry flavor; empty for a model torchtitan has no config of.
struct Registry {
  std::string module, function, flavor;
};

Registry RegistryOf(const ModelSpec* m) {
  if (!m) return {};
  if (m->name == "llama3-8b") return {"llama3", "llama3_8b", "8B"};
  if (m->name == "llama3-70b") return {"llama3", "llama3_70b", "70B"};
  if (m->name == "llama3.1-405b") return {"llama3", "llama3_405b", "405B"};
  if (m->name == "qwen3-30b-a3b") return {"qwen3", "qwen3_30b_a3b", "30B-A3B"};
  return {};
}

void Imports(std::ostream& out, const Registry& reg, const ParallelPlan& p) {
  out << "from torchtitan.models." << reg.module << " import model_registry\n"
      << "from torchtitan.models." << reg.module << ".config_registry import " << reg.function
      << "\n";
  if (p.precision == Precision::kFp8) {
    out << "from torchtitan.components.quantization import Float8LinearConverter\n";
  }
  if (p.recompute == Recompute::kFull || p.recompute == Recompute::kOp) {
    out << "from torchtitan.distributed.activation_checkpoint import "
        << (p.recompute == Recompute::kFull ? "FullAC" : "SelectiveAC") << "\n";
  }
  out << "from torchtitan.trainer import Trainer\n\n\n";
}

void ParallelismAssignments(std::ostream& out, const StepResult& r, const PlanReportContext& ctx) {
  const ParallelPlan& p = r.plan;
  // ZeRO 0 = DDP (replicate); ZeRO 2 ~ FSDP without resharding after forward; ZeRO 3 = FSDP.
  const bool shard = p.zero >= 1;
  out << "    p = config.parallelism\n"
      << "    p.data_parallel_replicate_degree = " << (shard ? 1 : p.dp) << "\n"
      << "    p.data_parallel_shard_degree = " << (shard ? p.dp : 1) << "\n";
  if (shard) {
    out << "    p.fsdp_reshard_after_forward = \"" << (p.zero == 3 ? "always" : "never") << "\"\n";
  }
  out << "    p.tensor_parallel_degree = " << p.tp << "\n"
      << "    p.pipeline_parallel_degree = " << p.pp << "\n";
  if (p.pp > 1) {
    out << "    p.pipeline_parallel_schedule = \"" << TorchtitanScheduleName(p) << "\"\n"
        << "    p.num_pp_microbatches = " << p.global_batch / (p.dp * p.micro_batch) << "\n";
    const std::vector<int64_t> layout = ResultLayout(r);
    if (!layout.empty() && !IsDefaultLayout(r, layout)) {
      out << "    p.module_fqns_per_model_part = " << TorchtitanModuleFqns(layout) << "\n";
    } else if (ctx.model_layers > 0) {
      // Exactly pp x vpp stages: the "less" weights for the embedding and the output are zeroed
      // (torchtitan/distributed/pipeline_parallel.py, pipeline_llm).
      out << "    p.pipeline_parallel_layers_per_stage = " << ctx.model_layers / (p.pp * p.vpp)
          << "\n"
          << "    p.pipeline_parallel_first_stage_less_layers = 0\n"
          << "    p.pipeline_parallel_last_stage_less_layers = 0\n";
    }
  }
  out << "    p.context_parallel_degree = " << p.cp << "\n";
  if (ctx.moe) {
    out << "    p.expert_parallel_degree = " << p.ep << "\n"
        << "    p.expert_tensor_parallel_degree = " << p.etp << "\n";
  }
}

void Body(std::ostream& out, const StepResult& r, const PlanReportContext& ctx,
          const Registry& reg) {
  const ParallelPlan& p = r.plan;
  const int64_t seq = EffectiveSeqLen(p, ctx);
  const bool compile = p.kernels.fusion == Fusion::kCompile;
  out << "def paraplan_plan() -> Trainer.Config:\n"
      << "    config = " << reg.function << "()\n";
  // The model's converters: float8 for an fp8 plan, none otherwise (the 405B config has one).
  out << "    config.model_spec = model_registry(\"" << reg.flavor << "\"";
  if (p.precision == Precision::kFp8) {
    out << ", converters=[Float8LinearConverter.Config(model_compile_enabled="
        << (compile ? "True" : "False") << ")]";
  }
  out << ")\n";
  ParallelismAssignments(out, r, ctx);
  out << "    config.compile.enable = " << (compile ? "True" : "False") << "\n"
      << "    config.compile.enable_async_tensor_parallel = "
      << (p.overlap_tp_comm ? "True" : "False") << "\n";
  if (p.pp > 1) out << "    config.training.disable_cuda_graphs = True  # not with PP\n";
  // The batch in tokens: a microbatch per data-parallel rank, and the global batch.
  out << "    config.training.max_context_length = " << seq << "\n"
      << "    config.training.num_tokens_per_microbatch_per_dp_rank = " << p.micro_batch << " * "
      << seq << "\n"
      << "    config.training.num_tokens_per_train_step = " << p.global_batch << " * " << seq
      << "\n";
  out << "    config.activation_checkpoint = "
      << (p.recompute == Recompute::kFull ? "FullAC.Config()"
          : p.recompute == Recompute::kOp ? "SelectiveAC.Config()"
                                          : "None")
      << "\n    return config\n";
}

class TorchtitanConfigReporter : public PlanReporter {
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
    WriteBestPlanHeader(out(), "torchtitan (b5bcd76) run config", ctx, best);
    const Registry reg = RegistryOf(ctx.model);
    if (reg.module.empty()) {
      out() << "# torchtitan b5bcd76 registers no config for "
            << (ctx.model ? ctx.model->name : std::string("this model"))
            << "; register its shape in a config_registry.py and start from it below.\n";
    }
    out() << "# Save as paraplan_run.py, then: NGPU=" << ctx.gpus
          << " MODULE=paraplan_run CONFIG=paraplan_plan ./run_train.sh\n\n";
    const Registry shown = reg.module.empty() ? Registry{"llama3", "llama3_8b", "8B"} : reg;
    Imports(out(), shown, p);
    Body(out(), best, ctx, shown);
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeTorchtitanConfigReporter(std::ostream& out) {
  return std::make_unique<TorchtitanConfigReporter>(out);
}

}  // namespace paraplan
