#include "search/nearest_fit.h"

#include "core/error.h"
#include "plan/knob_table.h"

namespace paraplan {

namespace {

template <typename T>
void Compare(std::vector<std::string>& out, Knob knob, const T& a, const T& b) {
  if (a != b)
    out.push_back(std::string(KnobName(knob)) + ": " + KnobValueText(a) + " -> " +
                  KnobValueText(b));
}

constexpr int kDistanceKnobs = 14;  // the knobs Distance compares

int Distance(const ParallelPlan& a, const ParallelPlan& b) {
  return (a.tp != b.tp) + (a.pp != b.pp) + (a.dp != b.dp) + (a.cp != b.cp) + (a.ep != b.ep) +
         (a.etp != b.etp) + (a.vpp != b.vpp) + (a.micro_batch != b.micro_batch) +
         (a.recompute != b.recompute) + (a.sequence_parallel != b.sequence_parallel) +
         (a.zero != b.zero) + (a.schedule != b.schedule) +
         (a.overlap_tp_comm != b.overlap_tp_comm) + (a.overlap_ep_comm != b.overlap_ep_comm);
}

}  // namespace

std::vector<std::string> KnobChanges(const ParallelPlan& a, const ParallelPlan& b) {
  std::vector<std::string> out;
  Compare(out, Knob::kTp, a.tp, b.tp);
  Compare(out, Knob::kPp, a.pp, b.pp);
  Compare(out, Knob::kDp, a.dp, b.dp);
  Compare(out, Knob::kCp, a.cp, b.cp);
  Compare(out, Knob::kEp, a.ep, b.ep);
  Compare(out, Knob::kEtp, a.etp, b.etp);
  Compare(out, Knob::kVpp, a.vpp, b.vpp);
  Compare(out, Knob::kMicroBatch, a.micro_batch, b.micro_batch);
  Compare(out, Knob::kRecompute, a.recompute, b.recompute);
  Compare(out, Knob::kSequenceParallel, a.sequence_parallel, b.sequence_parallel);
  Compare(out, Knob::kZero, static_cast<int64_t>(a.zero), static_cast<int64_t>(b.zero));
  Compare(out, Knob::kSchedule, a.schedule, b.schedule);
  Compare(out, Knob::kOverlapTpComm, a.overlap_tp_comm, b.overlap_tp_comm);
  Compare(out, Knob::kOverlapEpComm, a.overlap_ep_comm, b.overlap_ep_comm);
  if (FixesLayerSplit(a) && !FixesLayerSplit(b)) {
    out.emplace_back("layer split: as given -> balanced");
  }
  return out;
}

bool FixesLayerSplit(const ParallelPlan& from) {
  return !from.pp_layers.empty() || !from.layout.split_points.empty() || from.layout.mtp_stage >= 0;
}

PlanConstraints NearestFitConstraints(const ParallelPlan& from, bool keep_split) {
  PlanConstraints c;
  c.kernels = from.kernels;
  c.recipe = from.recipe;
  StageLayoutRule rule = from.layout;
  if (keep_split) {
    if (!from.pp_layers.empty()) c.pp_layers = from.pp_layers;
  } else {
    rule.split_points.clear();
    rule.mtp_stage = -1;
  }
  if (rule.AnySplit() || rule.mtp_stage >= 0) c.layout = rule;
  c.global_batch = std::vector<int64_t>{from.global_batch};
  c.seq_len = std::vector<int64_t>{from.seq_len};
  c.precision = std::vector<Precision>{from.precision};
  c.moe_routing = std::vector<MoeRouting>{from.moe_routing};
  c.moe_capacity_factor = std::vector<double>{from.moe_capacity_factor};
  c.moe_imbalance = std::vector<double>{from.moe_imbalance};
  c.dp_comm_dtype = std::vector<CommDtype>{from.dp_comm_dtype};
  c.dp_bucket_MB = std::vector<double>{from.dp_bucket_MB};
  c.placement = std::vector<std::array<ParallelDim, 5>>{from.placement};
  c.overlap_grad_reduce = std::vector<bool>{from.overlap_grad_reduce};
  c.overlap_param_gather = std::vector<bool>{from.overlap_param_gather};
  c.overlap_pp_comm = std::vector<bool>{from.overlap_pp_comm};
  c.zero3_keep_gathered = std::vector<bool>{from.zero3_keep_gathered};
  c.grad_reduce_in_fp32 = std::vector<bool>{from.grad_reduce_in_fp32};
  // Both values, so that turning sequence parallelism on counts as one change.
  c.sequence_parallel = std::vector<bool>{false, true};
  return c;
}

std::optional<NearestFit> FindNearestFit(const PlanSpace& space, const PlanEvaluator& evaluator,
                                         const ParallelPlan& from) {
  // Level by level: walking the space costs a distance per plan; only plans at the level being
  // searched are evaluated, so a large space with a near fit stays cheap.
  const double capacity = evaluator.MemoryCapacityBytes();
  for (int level = 1; level <= kDistanceKnobs; ++level) {
    double best_step = 0;
    std::optional<ParallelPlan> best;
    for (PlanCursor cursor(space, 0); !cursor.AtEnd(); cursor.Next()) {
      const ParallelPlan& plan = cursor.plan();
      if (Distance(from, plan) != level) continue;
      if (!evaluator.Violations(plan, true).empty()) continue;
      double step = 0;
      try {  // a plan the cost model refuses is skipped, as in the search
        if (evaluator.PeakMemoryBytes(plan) > capacity) continue;
        step = evaluator.EstimateStepSeconds(plan);
      } catch (const InputError&) {
        continue;
      }
      if (!best || step < best_step) {
        best_step = step;
        best = plan;
      }
    }
    if (best) {
      std::vector<std::string> changes = KnobChanges(from, *best);
      const auto distance = static_cast<int>(changes.size());  // level, and a dropped split
      return NearestFit{*best, distance, std::move(changes), space.size()};
    }
  }
  return std::nullopt;
}

}  // namespace paraplan
