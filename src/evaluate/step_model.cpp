#include "evaluate/step_model.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.h"
#include "core/format.h"
#include "cost/collective_calls.h"
#include "cost/compute_cost.h"
#include "cost/cost_graph.h"
#include "cost/dp_comm.h"
#include "cost/op_checkpoint.h"
#include "cost/plan_evaluation.h"
#include "cost/stage_memory.h"
#include "cost/stage_times.h"
#include "cost/time_parts.h"
#include "hardware/profile_lookup.h"
#include "plan/knob_bounds.h"
#include "plan/parallel_plan.h"
#include "sim/pipeline_simulator.h"

namespace paraplan {

struct StepModel::Impl {
  ModelSpec model;
  Cluster cluster;
  int64_t gpus = 0;
  CostGraph dims;
  NetworkLinks links;  // the cluster's collective links, resolved once
};

StepModel::StepModel(ModelSpec model, Cluster cluster, int64_t gpus)
    : impl_(std::make_unique<Impl>()) {
  impl_->dims = BuildCostGraph(model);
  impl_->model = std::move(model);
  impl_->cluster = std::move(cluster);
  // The search asks the profile for the same shapes millions of times: memoize (same numbers).
  if (impl_->cluster.profile) impl_->cluster.profile = WithLookupMemo(*impl_->cluster.profile);
  impl_->links = ResolveNetworkLinks(impl_->cluster);
  impl_->gpus = gpus;
}

StepModel::~StepModel() = default;
StepModel::StepModel(StepModel&&) noexcept = default;
StepModel& StepModel::operator=(StepModel&&) noexcept = default;

const ModelSpec& StepModel::model() const {
  return impl_->model;
}
const Cluster& StepModel::cluster() const {
  return impl_->cluster;
}
int64_t StepModel::gpus() const {
  return impl_->gpus;
}

double StepModel::PeakMemoryBytes(const ParallelPlan& plan) const {
  PlanEvaluation e;
  EvaluatePlanLayers(impl_->dims, impl_->cluster, impl_->links, plan, &e);
  return EvaluatePeakMemory(impl_->dims, plan, e);
}

double StepModel::EstimateStepSeconds(const ParallelPlan& plan) const {
  PlanEvaluation e;
  EvaluatePlanTime(impl_->dims, impl_->cluster, impl_->links, plan, &e);
  return e.step_s;
}

namespace {

double Nonneg(double v) {
  return v > 0 ? v : 0;
}

// Each stage's layers and per-micro-batch compute.
void FillLoads(const ParallelPlan& p, const PlanEvaluation& e, StepResult& r) {
  r.loads.clear();
  for (int64_t s = 0; s < p.pp; ++s) {
    StageLoad load;
    load.layers = e.layers[s];
    load.forward_s = e.times[s].f;
    load.backward_s = e.times[s].b + e.times[s].w;
    load.embedding = s == 0;
    load.loss = s == p.pp - 1;
    load.mtp = e.mtp_chunk >= 0 && e.mtp_chunk % p.pp == s;
    r.loads.push_back(load);
  }
}

// Memory, fit, throughput and MFU/HFU: shared by Estimate and Simulate.
void FillCommon(const CostGraph& d, const Cluster& c, int64_t gpus, const ParallelPlan& p,
                const PlanEvaluation& e, StepResult& r) {
  r.plan = p;
  r.memory.reserve(static_cast<size_t>(p.pp));
  r.peak_memory_bytes = 0;
  for (int64_t s = 0; s < p.pp; ++s) {
    r.memory.push_back(EvaluateStageMemory(d, p, e, s));
    r.peak_memory_bytes = std::max(r.peak_memory_bytes, r.memory.back().TotalBytes());
  }
  FillLoads(p, e, r);
  r.virtual_stage_layers.assign(e.chunk_layers.data(),
                                e.chunk_layers.data() + e.chunk_layers.size());
  r.mtp_virtual_stage = e.mtp_chunk;
  r.mtp_layers = d.mtp_layers;
  r.memory_capacity_bytes = c.gpu.memory_GiB * 1024.0 * 1024.0 * 1024.0;
  r.fits = r.peak_memory_bytes <= r.memory_capacity_bytes;
  const double seq = e.shape.seq;
  const double tokens = static_cast<double>(p.global_batch) * seq;
  const double g = static_cast<double>(gpus);
  r.tokens_per_s_per_gpu = r.step_time_s > 0 ? tokens / r.step_time_s / g : 0;
  // MFU: model FLOPs (3x forward: backward = 2x forward), causal attention, no recompute.
  const double fwd = ForwardFlopsPerToken(d, static_cast<int64_t>(seq)) * tokens;
  double recompute = 0;
  for (int k = 0; k < kLayerKinds; ++k) {
    const double layers = d.prefix[d.layers][k];
    if (layers == 0) continue;
    const double core = AttentionCoreFlopsPerToken(d, k, static_cast<int64_t>(seq)) * tokens;
    if (p.recompute == Recompute::kSelective) recompute += layers * core;
    if (p.recompute == Recompute::kOp)
      recompute += layers * OpRecomputeFlopsPerToken(d, k) * tokens;
  }
  if (p.recompute == Recompute::kFull) recompute = fwd - 2.0 * d.embedding_params * tokens;
  const double peak = PeakFlops(c.gpu, p.precision) * g * r.step_time_s;
  r.mfu = peak > 0 ? 3.0 * fwd / peak : 0;
  r.hfu = peak > 0 ? (3.0 * fwd + recompute) / peak : 0;
}

// The slowest of the plan's GPUs (cost/straggler.h), inside the breakdown's compute.
void FillScaleTerms(const Cluster& c, const ParallelPlan& p, const PlanEvaluation& e,
                    StepResult& r) {
  r.scale_terms.clear();
  ScaleTerm t;
  t.name = "slowest of N ranks";
  t.seconds = e.straggler_s;
  t.ranks = p.Gpus();
  t.fraction = e.straggler_fraction;
  t.sigma = c.gpu.speed_sigma;
  t.source = c.gpu.speed_sigma_source;
  r.scale_terms.push_back(t);
}

void AddNotes(StepResult& r) {
  const TimeBreakdown& t = r.time;
  r.notes.push_back(std::string("dominant cost: ") + DominantTimePart(t).name);
}

std::string TierName(const GroupPlacement& g, const Cluster& c) {
  if (c.network.empty()) return "";
  return c.network[std::min<size_t>(static_cast<size_t>(std::max(g.tier, 0)), c.network.size() - 1)]
      .name;
}

// Per step on stage `s`: each group's busy, hidden and exposed time and the compute its kernels'
// SMs took (m micro-batches of the stage's per-micro-batch figures; DP once per step).
void FillCommGroups(const CostGraph& d, const Cluster& c, const ParallelPlan& p,
                    const PlanEvaluation& e, int64_t s, double pp_exposed_s, StepResult& r) {
  const double m = static_cast<double>(e.micro_batches);
  StageBusy busy;
  const int64_t vpp = std::max<int64_t>(p.vpp, 1);
  for (int64_t chunk = 0; chunk < vpp; ++chunk) {
    StageBusy b;
    EvaluateChunkTimes(d, p, e, chunk * p.pp + s, &b);
    for (int g = 0; g < kCommStreams; ++g) {
      busy.fwd_s[g] += b.fwd_s[g];
      busy.bwd_s[g] += b.bwd_s[g];
    }
  }
  const StageComm& comm = e.comm[s];
  const PlanPlacement& groups = e.shape.groups;
  const std::pair<const char*, const GroupPlacement*> names[] = {
      {ToString(ParallelDim::kTp), &groups.tp},
      {ToString(ParallelDim::kCp), &groups.cp},
      {ToString(ParallelDim::kEp), &groups.ep},
      {"zero3", &groups.dp_cp}};
  const double exposed[] = {comm.tp_s, comm.cp_s, comm.ep_s, comm.zero3_s};
  r.comm_groups.clear();
  for (int g = 0; g < kCommStreams; ++g) {
    CommGroupTime t;
    t.group = names[g].first;
    t.tier = TierName(*names[g].second, c);
    t.busy_s = m * (busy.fwd_s[g] + busy.bwd_s[g]);
    t.exposed_s = m * exposed[g];
    t.hidden_s = Nonneg(t.busy_s - t.exposed_s);
    t.sm_loss_s = m * comm.sm_loss_s[g];
    if (t.busy_s > 0) r.comm_groups.push_back(t);
  }
  if (p.pp > 1) {
    CommGroupTime t;
    t.group = ToString(ParallelDim::kPp);
    // The stage's own sends: forward on its next hop, backward on its previous one.
    const PipelineHop& fwd = StageSendHop(p, e, s, true);
    const PipelineHop& bwd = StageSendHop(p, e, s, false);
    t.tier = TierName(PairOnTier(std::max(fwd.tier, bwd.tier), groups.pp.stride), c);
    t.busy_s = m * static_cast<double>(vpp) * (fwd.s + bwd.s);
    t.exposed_s = pp_exposed_s;
    t.hidden_s = Nonneg(t.busy_s - t.exposed_s);
    t.sm_loss_s = m * comm.sm_loss_s[kSmLossPp];
    r.comm_groups.push_back(t);
  }
  const StageDp& dp = e.dp[s];
  if (dp.grad_s + dp.param_gather_s > 0) {
    CommGroupTime t;
    t.group = ToString(ParallelDim::kDp);
    t.tier = TierName(groups.dp_cp.size > 1 ? groups.dp_cp : groups.edp, c);
    const double reduces = Zero2ReducesEveryMicroBatch(p) ? m : 1.0;
    const double earlier = m * dp.micro_batch_reduce_s;  // exposed in the earlier backwards
    t.busy_s = reduces * dp.grad_s + dp.param_gather_s;
    t.exposed_s = e.dp_exposed_s + earlier;
    t.hidden_s = Nonneg(t.busy_s - dp.grad_comm_exposed_s - earlier -
                        (dp.gather_exposed_s - dp.gather_sm_loss_s));
    t.sm_loss_s = dp.grad_sm_loss_s + dp.gather_sm_loss_s;
    r.comm_groups.push_back(t);
  }
  r.sm_loss_s = 0;
  for (const CommGroupTime& t : r.comm_groups) r.sm_loss_s += t.sm_loss_s;
}

}  // namespace

StepResult StepModel::Estimate(const ParallelPlan& plan) const {
  PlanEvaluation e;
  EvaluatePlanTime(impl_->dims, impl_->cluster, impl_->links, plan, &e);
  StepResult r;
  const double m = static_cast<double>(e.micro_batches);
  const StageComm& slow = e.comm[e.pipeline.slowest_stage];
  r.step_time_s = e.step_s;
  TimeBreakdown& t = r.time;
  t.tp_comm_s = m * slow.tp_s;
  t.cp_comm_s = m * slow.cp_s;
  t.ep_comm_s = m * slow.ep_s;
  t.pp_comm_s = m * slow.p2p_s + e.pp_comm_s;
  // ZeRO-2's earlier micro-batches' reductions ride in the backward (dp_comm.h,
  // Zero2MicroBatchReduceSeconds): reported as DP communication, not compute.
  const double micro_batch_reduce = m * e.dp[e.pipeline.slowest_stage].micro_batch_reduce_s;
  t.dp_comm_exposed_s = m * slow.zero3_s + e.dp_exposed_s + micro_batch_reduce;
  t.compute_s = Nonneg(e.pipeline.busy_s - m * slow.ExposedS() - micro_batch_reduce) +
                e.straggler_s + impl_->cluster.efficiency.step_overhead_s;
  t.bubble_s = e.pipeline.bubble_s;
  t.optimizer_s = e.optimizer_s;
  FillCommon(impl_->dims, impl_->cluster, impl_->gpus, plan, e, r);
  AddNotes(r);
  FillScaleTerms(impl_->cluster, plan, e, r);
  r.collectives = DescribeCollectives(impl_->dims, impl_->cluster, impl_->links, plan, e);
  FillCommGroups(impl_->dims, impl_->cluster, plan, e, e.pipeline.slowest_stage, t.pp_comm_s, r);
  return r;
}

namespace {

Nanos ToNanos(double s) {
  // Deliberate truncation of x + 0.5: llround differs at x <= -0.5 ns and x = 0.5 - 2^-54, and
  // the simulator's outputs are pinned to this rounding.
  return static_cast<Nanos>(s * 1e9 + 0.5);  // NOLINT(bugprone-incorrect-roundings)
}

// The simulator's times are integer nanoseconds; every event ends by the sum of all durations, so
// a sum within this bound (10^8 s, three years, 92x below int64's 292 years) can never overflow.
// Past it an input is far out of range (a bandwidth or FLOP rate near zero): the plan is refused
// by name, and the search skips and counts it, instead of a wrapped time.
constexpr double kMaxSimulatedSeconds = 1e8;

// Converts each duration and sums them for the bound above.
class NanosBudget {
 public:
  Nanos operator()(double s, double count = 1) {
    if (!std::isfinite(s) || s < 0) s = kMaxSimulatedSeconds * 2;
    total_s_ += s * count;
    return total_s_ > kMaxSimulatedSeconds ? 0 : ToNanos(s);
  }
  void Check() const {
    if (!(total_s_ <= kMaxSimulatedSeconds)) {
      throw InputError(
          "the step's simulated work sums to more than a hundred million seconds (three years): "
          "an input is far out of range (a bandwidth, FLOP rate or efficiency near zero)");
    }
  }

 private:
  double total_s_ = 0;
};

static_assert(kCommStreams == kMaxCommStreams, "cost and simulator stream counts differ");

// "tp nvlink": the trace track of a group's collectives, named by the outermost tier it crosses.
std::string CommStream(const char* group, const GroupPlacement& g, const Cluster& c) {
  if (g.size < 2 || c.network.empty()) return "";
  const size_t tier =
      std::min<size_t>(static_cast<size_t>(std::max(g.tier, 0)), c.network.size() - 1);
  return std::string(group) + " " + c.network[tier].name;
}

}  // namespace

PipelineInput StepModel::BuildPipelineInput(const ParallelPlan& plan) const {
  PlanEvaluation e;
  EvaluatePlanTime(impl_->dims, impl_->cluster, impl_->links, plan, &e);
  return PipelineInputOf(plan, e);
}

PipelineInput StepModel::PipelineInputOf(const ParallelPlan& plan, const PlanEvaluation& e) const {
  PipelineInput in;
  in.schedule = plan.schedule;
  in.pp = plan.pp;
  in.vpp = std::max<int64_t>(plan.vpp, 1);
  in.micro_batches = e.micro_batches;
  NanosBudget ns;
  const double m = static_cast<double>(e.micro_batches);
  in.p2p = plan.pp > 1 ? ns(e.p2p_s, 4 * m * static_cast<double>(plan.pp * in.vpp)) : 0;
  for (int64_t b = 0; b < static_cast<int64_t>(e.hops.size()); ++b) {
    in.hops.push_back(ns(e.hops[b].s, 4 * m * static_cast<double>(plan.pp * in.vpp)));
  }
  in.overlap_pp_comm = plan.overlap_pp_comm;
  in.lockstep = plan.kernels.pp_lockstep;
  in.overlap_grad_reduce = plan.overlap_grad_reduce;
  in.overlap_param_gather = plan.overlap_param_gather;  // false: the first forward waits for it
  const PlanPlacement& groups = e.shape.groups;
  in.comm_streams[kCommTp] = CommStream(ToString(ParallelDim::kTp), groups.tp, impl_->cluster);
  in.comm_streams[kCommCp] = CommStream(ToString(ParallelDim::kCp), groups.cp, impl_->cluster);
  in.comm_streams[kCommEp] = CommStream(ToString(ParallelDim::kEp), groups.ep, impl_->cluster);
  in.comm_streams[kCommZero3] = CommStream("zero3", groups.dp_cp, impl_->cluster);
  for (int64_t s = 0; s < plan.pp; ++s) {
    StageCost stage;
    for (int64_t c = 0; c < in.vpp; ++c) {
      // Each chunk's own layers, embedding, loss and MTP: uneven layouts reach the simulator.
      StageBusy busy;
      StageTimes t = EvaluateChunkTimes(impl_->dims, plan, e, c * plan.pp + s, &busy);
      if (!plan.overlap_pp_comm && plan.pp > 1) {  // the simulator adds the sends itself
        t.f -= StageSendHop(plan, e, s, true).s;
        t.b -= StageSendHop(plan, e, s, false).s;
      }
      ChunkCost chunk;
      chunk.forward = ns(t.f, m);
      chunk.backward_input = ns(t.b, m);
      chunk.backward_weight = ns(t.w, m);
      chunk.recompute = 0;  // already inside backward_input
      for (int g = 0; g < kCommStreams; ++g) {
        chunk.comm_forward[g] = ns(busy.fwd_s[g], m);
        chunk.comm_backward[g] = ns(busy.bwd_s[g], m);
        chunk.sm_loss_forward[g] = ns(busy.sm_loss_fwd_s[g], m);
        chunk.sm_loss_backward[g] = ns(busy.sm_loss_bwd_s[g], m);
      }
      stage.chunks.push_back(chunk);
    }
    stage.dp_grad_comm = ns(e.dp[s].grad_s);
    stage.dp_buckets = e.dp[s].buckets;
    if (stage.dp_buckets > kMaxDpBuckets) {
      throw InputError("dp_bucket_MB=" + FormatShortest(plan.dp_bucket_MB) + " makes " +
                       std::to_string(stage.dp_buckets) + " gradient buckets in stage " +
                       std::to_string(s) + ", more than " + std::to_string(kMaxDpBuckets) +
                       " (paraplan's bound): use larger buckets");
    }
    stage.param_gather = ns(e.dp[s].param_gather_s);
    stage.optimizer = ns(e.dp[s].optimizer_s);
    stage.dp_sm_share = e.dp[s].sm_share;
    stage.dp_nic_rate_fwd = e.dp[s].nic_rate_fwd;
    stage.dp_nic_rate_bwd = e.dp[s].nic_rate_bwd;
    in.stages.push_back(std::move(stage));
  }
  ns.Check();
  return in;
}

StepResult StepModel::Simulate(const ParallelPlan& plan,
                               std::vector<TimelineEvent>* timeline) const {
  PlanEvaluation e;
  EvaluatePlanTime(impl_->dims, impl_->cluster, impl_->links, plan, &e);
  PipelineInput in = PipelineInputOf(plan, e);
  in.record_timeline = timeline != nullptr;
  PipelineResult sim = SimulatePipeline(in);
  if (timeline) *timeline = std::move(sim.timeline);
  StepResult r;
  r.simulated = true;
  const double m = static_cast<double>(e.micro_batches);
  const int64_t critical = std::clamp<int64_t>(sim.critical_stage, 0, plan.pp - 1);
  const StageComm& slow = e.comm[critical];
  const double overhead = SimulatedOverheadSeconds(e);
  r.step_time_s = static_cast<double>(sim.step) * 1e-9 + overhead;
  TimeBreakdown& t = r.time;
  t.tp_comm_s = m * slow.tp_s;
  t.cp_comm_s = m * slow.cp_s;
  t.ep_comm_s = m * slow.ep_s;
  t.pp_comm_s = static_cast<double>(sim.pp_comm_exposed) * 1e-9;
  // ZeRO-2's earlier reductions ride in the backward passes (dp_comm.h): DP, not compute.
  const double micro_batch_reduce = m * e.dp[critical].micro_batch_reduce_s;
  t.dp_comm_exposed_s =
      m * slow.zero3_s + static_cast<double>(sim.dp_comm_exposed) * 1e-9 + micro_batch_reduce;
  t.optimizer_s = static_cast<double>(sim.optimizer) * 1e-9;
  t.compute_s =
      Nonneg(static_cast<double>(sim.compute) * 1e-9 -
             m * (slow.tp_s + slow.cp_s + slow.ep_s + slow.zero3_s) - micro_batch_reduce) +
      overhead;
  // Whatever of the step is not accounted above is pipeline idle time.
  t.bubble_s = Nonneg(r.step_time_s - t.compute_s - t.tp_comm_s - t.cp_comm_s - t.ep_comm_s -
                      t.pp_comm_s - t.dp_comm_exposed_s - t.optimizer_s);
  FillCommon(impl_->dims, impl_->cluster, impl_->gpus, plan, e, r);
  AddNotes(r);
  FillScaleTerms(impl_->cluster, plan, e, r);
  r.collectives = DescribeCollectives(impl_->dims, impl_->cluster, impl_->links, plan, e);
  FillCommGroups(impl_->dims, impl_->cluster, plan, e,
                 std::clamp<int64_t>(sim.critical_stage, 0, plan.pp - 1), t.pp_comm_s, r);
  return r;
}

double StepModel::SimulatedOverheadSeconds(const PlanEvaluation& e) const {
  // The slowest of N ranks: the estimate's seconds (its compute at the slowest GPU's pace).
  return impl_->cluster.efficiency.step_overhead_s + e.straggler_s;
}

StepResult StepModel::SimulateStepTime(const ParallelPlan& plan) const {
  PlanEvaluation e;
  EvaluatePlanTime(impl_->dims, impl_->cluster, impl_->links, plan, &e);
  PipelineInput in = PipelineInputOf(plan, e);
  in.record_critical_path = false;
  const PipelineResult sim = SimulatePipeline(in);
  StepResult r;
  r.simulated = true;
  r.plan = plan;
  r.step_time_s = static_cast<double>(sim.step) * 1e-9 + SimulatedOverheadSeconds(e);
  FillLoads(plan, e, r);
  return r;
}

}  // namespace paraplan
