// `--format megatron`: Megatron-LM (megatron/training/arguments.py) flags for the best plan, one
// per line with shell continuations, so the block pastes into a pretrain_gpt.py command line:
// the model shape (megatron_model_flags.h) and every plan knob. A plan Megatron-LM cannot run
// (FrameworkViolations) is not exported: the reasons are printed instead.
#include "core/format.h"
#include "core/units.h"
#include "plan/framework_caps.h"
#include "report/export_check.h"
#include "report/layout_flags.h"
#include "report/megatron_model_flags.h"
#include "report/megatron_recipe_flags.h"
#include "report/plan_reporter.h"

namespace paraplan {

namespace {

using Flags = std::vector<std::string>;

// The pipeline size and, for a layout other than equal virtual stages, the flags reproducing it
// (layout_flags.h).
void PipelineFlags(const StepResult& r, const PlanReportContext& ctx, Flags& flags, Flags& notes) {
  const ParallelPlan& p = r.plan;
  AddMegatronFlag(flags, "--pipeline-model-parallel-size", p.pp);
  // Megatron-LM overlaps P2P in the interleaved schedule by default.
  if (p.vpp > 1 && !p.overlap_pp_comm) flags.push_back("--no-overlap-p2p-communication");
  const std::vector<int64_t> layout = ResultLayout(r);
  if (p.pp < 2 || layout.empty() || IsDefaultLayout(r, layout)) {
    if (p.vpp > 1)
      AddMegatronFlag(flags, "--num-layers-per-virtual-pipeline-stage",
                      ctx.model_layers / (p.pp * p.vpp));
    return;
  }
  std::string note;
  for (std::string& f : MegatronLayoutFlags(r, layout, &note)) flags.push_back(std::move(f));
  notes.push_back(note);
}

void RecomputeFlags(const ParallelPlan& p, Flags& flags) {
  if (p.recompute == Recompute::kSelective) {
    flags.push_back("--recompute-granularity selective");
  }
  if (p.recompute == Recompute::kFull) {
    flags.push_back("--recompute-granularity full");
    flags.push_back("--recompute-method uniform");
    flags.push_back("--recompute-num-layers 1");
  }
}

// ZeRO 1 = the distributed optimizer; 2 and 3 = Megatron-FSDP's sharding strategies.
void ShardingFlags(const ParallelPlan& p, Flags& flags) {
  if (p.zero >= 1) flags.push_back("--use-distributed-optimizer");
  if (p.zero >= 2) {
    flags.push_back("--use-megatron-fsdp");
    flags.push_back(std::string("--data-parallel-sharding-strategy ") +
                    (p.zero == 2 ? "optim_grads" : "optim_grads_params"));
    // Megatron-LM d98e8a6 validate_args: "Megatron-FSDP requires the `fsdp_dtensor`
    // checkpointing format" (megatron/training/arguments.py).
    flags.push_back("--ckpt-format fsdp_dtensor");
  }
  if (p.overlap_grad_reduce && p.dp * p.cp > 1) flags.push_back("--overlap-grad-reduce");
  if (p.overlap_param_gather && p.zero >= 1 && p.dp * p.cp > 1) {
    flags.push_back("--overlap-param-gather");
  }
  // --grad-reduce-in-bf16 is DistributedDataParallelConfig.grad_reduce_in_fp32=False.
  const bool bf16_grads = DpGradCommDtype(p) == CommDtype::kBf16;
  if (bf16_grads) flags.push_back("--grad-reduce-in-bf16");
  // --ddp-bucket-size counts gradient elements.
  if (p.dp_bucket_MB > 0) {
    const double element_bytes = bf16_grads ? 2.0 : 4.0;
    AddMegatronFlag(flags, "--ddp-bucket-size",
                    static_cast<int64_t>(p.dp_bucket_MB * 1024 * 1024 / element_bytes));
  }
}

Flags BuildFlags(const StepResult& r, const PlanReportContext& ctx, Flags& notes) {
  const ParallelPlan& p = r.plan;
  Flags flags;
  if (ctx.model) flags = MegatronModelFlags(*ctx.model, EffectiveSeqLen(p, ctx));
  AddMegatronFlag(flags, "--tensor-model-parallel-size", p.tp);
  PipelineFlags(r, ctx, flags, notes);
  AddMegatronFlag(flags, "--context-parallel-size", p.cp);
  if (ctx.moe) {
    AddMegatronFlag(flags, "--expert-model-parallel-size", p.ep);
    AddMegatronFlag(flags, "--expert-tensor-parallel-size", p.etp);
    if (p.moe_routing == MoeRouting::kDrop) {
      flags.push_back("--moe-expert-capacity-factor " + FormatShortest(p.moe_capacity_factor));
    }
    if (p.kernels.moe_hybridep) {
      flags.push_back("--moe-token-dispatcher-type flex");
      flags.push_back("--moe-flex-dispatcher-backend hybridep");
    } else if (p.kernels.moe_deepep) {
      flags.push_back("--moe-token-dispatcher-type flex");
      flags.push_back("--moe-enable-deepep");
    } else {
      flags.push_back("--moe-token-dispatcher-type alltoall");
    }
    if (p.overlap_ep_comm) flags.push_back("--overlap-moe-expert-parallel-comm");
  }
  AddMegatronFlag(flags, "--micro-batch-size", p.micro_batch);
  AddMegatronFlag(flags, "--global-batch-size", p.global_batch);
  if (!ctx.model) AddMegatronFlag(flags, "--seq-length", EffectiveSeqLen(p, ctx));
  if (p.sequence_parallel) flags.push_back("--sequence-parallel");
  RecomputeFlags(p, flags);
  MegatronRecipeFlags(p, flags, notes);
  ShardingFlags(p, flags);
  if (p.overlap_tp_comm) flags.push_back("--tp-comm-overlap");
  if (p.precision == Precision::kFp16) {
    flags.push_back("--fp16");
  } else {
    flags.push_back("--bf16");
  }
  if (p.precision == Precision::kFp8) {
    flags.push_back("--fp8-format hybrid");
    // Megatron-Core's default is delayed (transformer_config.py): written only when it differs.
    if (p.kernels.fp8_recipe != Fp8Recipe::kDelayed) {
      flags.push_back(std::string("--fp8-recipe ") + ToString(p.kernels.fp8_recipe));
    }
  }
  return flags;
}

// CUDA_DEVICE_MAX_CONNECTIONS as Megatron-LM d98e8a6 validate_args wants it on Hopper and
// earlier: 1 with tp or cp > 1 (so TP/SP communication kernels are issued in order), except
// under Megatron-FSDP (asserts it is not 1: left unset) and with EP all-to-all overlap (a
// warning only: left unset so the overlap streams run concurrently).
std::string MegatronConnectionsLine(const ParallelPlan& p) {
  if (p.tp * p.cp == 1) return "";
  if (p.zero >= 2) return "# CUDA_DEVICE_MAX_CONNECTIONS must stay unset (Megatron-FSDP)\n";
  if (p.overlap_ep_comm) return "# CUDA_DEVICE_MAX_CONNECTIONS left unset (EP overlap)\n";
  return "export CUDA_DEVICE_MAX_CONNECTIONS=1\n";
}

class MegatronReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    if (result.plans.empty()) {
      out() << "# paraplan found no plan that fits; nothing to launch.\n";
      return;
    }
    const StepResult& best = result.plans.front();
    const ParallelPlan& p = best.plan;
    if (WriteNotRunnable(out(), Framework::kMegatron, ctx, p)) return;
    Flags notes;
    const Flags flags = BuildFlags(best, ctx, notes);
    WriteBestPlanHeader(out(), "Megatron-LM arguments", ctx, best);
    out() << "# data-parallel size is implied: " << ctx.gpus << " GPUs / (tp " << p.tp << " x pp "
          << p.pp << " x cp " << p.cp << ") = " << p.dp << "\n";
    for (const std::string& note : notes) out() << "# " << note << "\n";
    out() << MegatronConnectionsLine(p);
    for (size_t i = 0; i < flags.size(); ++i) {
      out() << flags[i] << (i + 1 < flags.size() ? " \\\n" : "\n");
    }
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeMegatronReporter(std::ostream& out) {
  return std::make_unique<MegatronReporter>(out);
}

}  // namespace paraplan
