// `--format csv`: one row per ranked plan, units in the column names, then the Pareto front's
// plans flagged in the `pareto` column (a plan on both lists appears once); `plan_string`, quoted,
// re-runs the row with `simulate --plan`.
#include "core/format.h"
#include "core/units.h"
#include "plan/plan_string.h"
#include "report/plan_reporter.h"
#include "search/objective.h"

namespace paraplan {

namespace {

constexpr const char* kHeader =
    "rank,tp,pp,dp,cp,ep,etp,vpp,micro_batch,global_batch,seq_len,recompute,sequence_parallel,"
    "zero,precision,schedule,overlap_tp_comm,overlap_ep_comm,step_time_s,tokens_per_s_per_gpu,"
    "mfu,hfu,memory_GiB,cost_gpu_hours_per_billion_tokens,simulated,pareto,plan_string";

bool SamePlan(const StepResult& a, const StepResult& b) {
  const ParallelPlan& p = a.plan;
  const ParallelPlan& q = b.plan;
  return p.tp == q.tp && p.pp == q.pp && p.dp == q.dp && p.cp == q.cp && p.ep == q.ep &&
         p.etp == q.etp && p.vpp == q.vpp && p.micro_batch == q.micro_batch &&
         p.global_batch == q.global_batch && p.seq_len == q.seq_len && p.recompute == q.recompute &&
         p.sequence_parallel == q.sequence_parallel && p.zero == q.zero &&
         p.precision == q.precision && p.schedule == q.schedule &&
         p.overlap_tp_comm == q.overlap_tp_comm && p.overlap_ep_comm == q.overlap_ep_comm &&
         a.step_time_s == b.step_time_s;
}

bool Contains(const std::vector<StepResult>& list, const StepResult& r) {
  for (const StepResult& x : list) {
    if (SamePlan(x, r)) return true;
  }
  return false;
}

const char* Bool(bool b) {
  return b ? "true" : "false";
}

class CsvReporter : public PlanReporter {
 public:
  using PlanReporter::PlanReporter;

  void Report(const PlanReportContext& ctx, const SearchResult& result) override {
    out() << kHeader << "\n";
    for (size_t i = 0; i < result.plans.size(); ++i) {
      Row(ctx, std::to_string(i + 1), result.plans[i], Contains(result.pareto, result.plans[i]));
    }
    for (const StepResult& r : result.pareto) {
      if (!Contains(result.plans, r)) Row(ctx, "", r, true);
    }
  }

 private:
  void Row(const PlanReportContext& ctx, const std::string& rank, const StepResult& r,
           bool pareto) {
    const ParallelPlan& p = r.plan;
    const double cost =
        GpuHoursPerBillionTokens(r.step_time_s, ctx.gpus, TokensPerStep(p, ctx.model_seq_len));
    out() << rank << ',' << p.tp << ',' << p.pp << ',' << p.dp << ',' << p.cp << ',' << p.ep << ','
          << p.etp << ',' << p.vpp << ',' << p.micro_batch << ',' << p.global_batch << ','
          << EffectiveSeqLen(p, ctx) << ',' << ToString(p.recompute) << ','
          << Bool(p.sequence_parallel) << ',' << p.zero << ',' << ToString(p.precision) << ','
          << ToString(p.schedule) << ',' << Bool(p.overlap_tp_comm) << ','
          << Bool(p.overlap_ep_comm) << ',' << FormatShortest(r.step_time_s) << ','
          << FormatShortest(r.tokens_per_s_per_gpu) << ',' << FormatShortest(r.mfu) << ','
          << FormatShortest(r.hfu) << ',' << FormatShortest(BytesToGiB(r.peak_memory_bytes)) << ','
          << FormatShortest(cost) << ',' << Bool(r.simulated) << ',' << Bool(pareto) << ",\""
          << PlanString(p, ctx.model_seq_len) << "\"\n";
  }
};

}  // namespace

std::unique_ptr<PlanReporter> MakeCsvReporter(std::ostream& out) {
  return std::make_unique<CsvReporter>(out);
}

}  // namespace paraplan
