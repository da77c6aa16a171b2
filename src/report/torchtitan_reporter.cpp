// `--format torchtitan`: the best plan as torchtitan job-config TOML ([training], [parallelism],
// [activation_checkpoint], and float8 when the plan trains in fp8). Names follow torchtitan's
// JobConfig (torchtitan/config/job_config.py).
#include "core/format.h"
#include "core/units.h"
#include "report/layout_flags.h"
#include "report/plan_reporter.h"

namespace paraplan {

namespace {

const char* TitanSchedule(const ParallelPlan& p) {
  switch (p.schedule) {
    case Schedule::kGpipe:
      return "GPipe";
    case Schedule::k1F1B:
      return "1F1B";
    case Schedule::kInterleaved:
      return "Interleaved1F1B";
    case Schedule::kZeroBubble:
      return p.vpp > 1 ? "InterleavedZeroBubble" : "ZBVZeroBubble";
    case Schedule::kDualPipe:
      return "DualPipeV";
  }
  return "1F1B";
}

void Training(std::ostream& out, const ParallelPlan& p, const PlanReportContext& ctx) {
  // Without pipelining torchtitan accumulates local batches; with it, the local batch is split
  // into micro-batches of pipeline_parallel_microbatch_size.
  const int64_t local = p.pp > 1 ? p.global_batch / p.dp : p.micro_batch;
  out << "[training]\n"
      << "local_batch_size = " << local << "\n"
      << "global_batch_size = " << p.global_batch << "\n"
      << "seq_len = " << EffectiveSeqLen(p, ctx) << "\n\n";
}

void Parallelism(std::ostream& out, const StepResult& r, const PlanReportContext& ctx) {
  const ParallelPlan& p = r.plan;
  // ZeRO 0 = DDP (replicate); ZeRO 1-2 ~ FSDP without resharding after forward; ZeRO 3 = FSDP.
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
    out << "pipeline_parallel_schedule = \"" << TitanSchedule(p) << "\"\n"
        << "pipeline_parallel_microbatch_size = " << p.micro_batch << "\n";
    const std::vector<int64_t> layout = ResultLayout(r);
    if (!layout.empty() && !IsDefaultLayout(r, layout)) {
      out << "module_fqns_per_model_part = " << TorchtitanModuleFqns(layout) << "\n";
    } else if (p.vpp > 1 && ctx.model_layers > 0) {
      out << "pipeline_parallel_layers_per_stage = " << ctx.model_layers / (p.pp * p.vpp) << "\n";
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
  // torchtitan has no Megatron-style selective mode: its per-op SAC is the nearest.
  const bool op = p.recompute == Recompute::kOp || p.recompute == Recompute::kSelective;
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
    WriteBestPlanHeader(out(), "torchtitan job config", ctx, best);
    out() << "\n";
    Training(out(), p, ctx);
    Parallelism(out(), best, ctx);
    Checkpointing(out(), p);
    if (p.precision == Precision::kFp8) {
      out() << "\n[model]\nconverters = [\"float8\"]\n\n"
            << "[float8]\nrecipe_name = \"tensorwise\"\n";
      if (p.zero >= 1) out() << "enable_fsdp_float8_all_gather = true\n";
    }
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeTorchtitanReporter(std::ostream& out) {
  return std::make_unique<TorchtitanReporter>(out);
}

}  // namespace paraplan
