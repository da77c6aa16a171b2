// `--format deepspeed`: the best plan as a DeepSpeed config JSON (docs: deepspeed.ai "DeepSpeed
// Configuration JSON" and "Automatic Tensor Parallelism (Training)"): batch sizes, precision,
// ZeRO stage with overlap_comm and bucket size, the gradient-reduction dtype, AutoTP's degree.
// The JSON alone must reproduce the plan: pipeline stages (PipelineModule), experts
// (deepspeed.moe.layer.MoE) and activation checkpointing live in model code, so a plan that needs
// them, or one DeepSpeed cannot run at all, is not exported: the reasons are printed instead.
#include <cmath>

#include "core/json.h"
#include "plan/framework_caps.h"
#include "report/export_check.h"
#include "report/plan_reporter.h"

namespace paraplan {

namespace {

// What a config file cannot say (empty when it says everything).
std::vector<std::string> NotInConfig(const ParallelPlan& p, const PlanReportContext& ctx) {
  std::vector<std::string> out;
  if (p.pp > 1) out.push_back("pp > 1: DeepSpeed's pipeline stages are PipelineModule code");
  if (ctx.moe) out.push_back("MoE: DeepSpeed's experts (ep_size) are deepspeed.moe code");
  if (p.recompute != Recompute::kNone) {
    out.push_back("recompute: DeepSpeed's activation checkpointing is model code");
  }
  return out;
}

Json Config(const ParallelPlan& p) {
  Json zero = Json::MakeObject();
  zero.Set("stage", p.zero);
  zero.Set("overlap_comm", p.overlap_grad_reduce);
  zero.Set("contiguous_gradients", true);
  const bool bf16_grads = DpGradCommDtype(p) == CommDtype::kBf16;
  const double element_bytes = bf16_grads ? 2.0 : 4.0;
  // dp_bucket_MB is 10^6 bytes (DpBucketBytes, parallel_plan.cpp); paraplan prices the ZeRO-1/2
  // gather in the same buckets, so both sizes are written (1000 MB of bf16: DeepSpeed's 5e8).
  if (p.dp_bucket_MB > 0) {
    const auto elements = static_cast<int64_t>(std::llround(p.dp_bucket_MB * 1e6 / element_bytes));
    zero.Set("reduce_bucket_size", elements);
    zero.Set("allgather_bucket_size", elements);
  }
  Json enabled = Json::MakeObject();
  enabled.Set("enabled", true);
  Json j = Json::MakeObject();
  j.Set("train_batch_size", p.global_batch);
  j.Set("train_micro_batch_size_per_gpu", p.micro_batch);
  j.Set("gradient_accumulation_steps", p.MicroBatches());
  j.Set(p.precision == Precision::kFp16 ? "fp16" : "bf16", std::move(enabled));
  j.Set("communication_data_type", bf16_grads ? "bf16" : "fp32");
  j.Set("zero_optimization", std::move(zero));
  if (p.tp > 1) {
    Json tp = Json::MakeObject();
    tp.Set("autotp_size", p.tp);
    j.Set("tensor_parallel", std::move(tp));
  }
  return j;
}

class DeepSpeedReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    if (result.plans.empty()) {
      out() << "# paraplan found no plan that fits; nothing to launch.\n";
      return;
    }
    const ParallelPlan& p = result.plans.front().plan;
    if (WriteNotRunnable(out(), Framework::kDeepSpeed, ctx, p)) return;
    const std::vector<std::string> code = NotInConfig(p, ctx);
    if (!code.empty()) {
      out() << "# NOT EXPRESSIBLE as a DeepSpeed config: the best plan needs model code:\n";
      for (const std::string& c : code) out() << "#   - " << c << "\n";
      out() << "# Restrict the search (e.g. --plan pp=1,recompute=none) for a config-only plan.\n";
      return;
    }
    out() << Config(p).Dump(2) << "\n";
  }
};

}  // namespace

std::vector<std::string> DeepSpeedConfigGaps(const ParallelPlan& plan,
                                             const PlanReportContext& context) {
  return NotInConfig(plan, context);
}

std::unique_ptr<PlanReporter> MakeDeepSpeedReporter(std::ostream& out) {
  return std::make_unique<DeepSpeedReporter>(out);
}

}  // namespace paraplan
