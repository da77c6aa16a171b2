#include "search/plan_space.h"

#include <algorithm>
#include <numeric>

#include "core/error.h"
#include "plan/knob_table.h"
#include "plan/plan_defaults.h"

namespace paraplan {

namespace {

template <typename T>
std::vector<T> ValuesOr(const Choice<T>& choice, std::vector<T> fallback, Knob knob) {
  if (!choice) return fallback;
  if (choice->empty()) {
    throw InputError(std::string("plan knob '") + KnobName(knob) + "' has no values");
  }
  return *choice;
}

template <typename T>
bool Allowed(const Choice<T>& choice, const T& value) {
  return !choice || std::find(choice->begin(), choice->end(), value) != choice->end();
}

// Values of an integer knob: the user's list (those dividing `limit` when limit > 0), or all
// divisors of limit.
std::vector<int64_t> IntValues(const Choice<int64_t>& choice, int64_t limit) {
  if (!choice) return Divisors(limit);
  std::vector<int64_t> out;
  for (int64_t v : *choice) {
    if (v > 0 && limit % v == 0) out.push_back(v);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<bool> BoolValues(const Choice<bool>& choice, std::vector<bool> fallback) {
  if (!choice) return fallback;
  std::vector<bool> out;
  for (bool v : {false, true}) {
    if (Allowed(choice, v)) out.push_back(v);
  }
  return out;
}

// Layers held by each stage when all stages are equal, or 0 when they are not.
int64_t UniformStageLayers(const ModelSpec& model, const ParallelPlan& plan) {
  if (!plan.pp_layers.empty()) {
    int64_t g = 0;
    for (int64_t n : plan.pp_layers) g = std::gcd(g, n);
    return g;
  }
  return model.layers % plan.pp == 0 ? model.layers / plan.pp : 0;
}

// vpp values searched for an interleaved schedule: with a fixed per-stage split, those dividing
// every stage; otherwise those Megatron-LM can lay out with its split flags, where pp*vpp divides
// the layers (uniform chunks) or the layers + 2 (the embedding and the loss accounted as layers:
// --account-for-embedding-in-pipeline-split --account-for-loss-in-pipeline-split, Llama 3's
// layout). The cost model then balances the virtual stages itself (cost/stage_balance.h). Any
// other vpp is evaluated when asked for (`vpp=N`).
std::vector<int64_t> InterleavedVppValues(const ModelSpec& model, const ParallelPlan& plan) {
  std::vector<int64_t> out;
  const auto entries = static_cast<int64_t>(plan.pp_layers.size());
  if (entries > plan.pp && entries % plan.pp == 0) return {entries / plan.pp};  // per virtual stage
  if (!plan.pp_layers.empty() || plan.layout.AnySplit()) {
    const int64_t per_stage = UniformStageLayers(model, plan);
    if (per_stage == 0) return out;
    for (int64_t v : Divisors(per_stage)) {
      if (v > 1) out.push_back(v);
    }
    return out;
  }
  for (int64_t extra : {0, 2}) {
    const int64_t total = model.layers + extra;
    if (total % plan.pp != 0) continue;
    for (int64_t v : Divisors(total / plan.pp)) {
      if (v > 1) out.push_back(v);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::vector<std::pair<Schedule, int64_t>> ScheduleVppValues(const ModelSpec& model,
                                                            const PlanConstraints& c,
                                                            const ParallelPlan& plan) {
  std::vector<std::pair<Schedule, int64_t>> out;
  // One stage: 1F1B, unless --plan fixes a vpp other than 1 (issue 34: `vpp=2` returned pp = 1
  // plans with vpp = 1). That vpp is then tried as asked and the rules say why it cannot run.
  if (plan.pp == 1 && !c.schedule && Allowed(c.vpp, int64_t{1})) return {{Schedule::k1F1B, 1}};
  // GPipe has 1F1B's bubble and holds every micro-batch's activations: searched only on request.
  const std::vector<Schedule> schedules = ValuesOr(
      c.schedule,
      {Schedule::k1F1B, Schedule::kInterleaved, Schedule::kZeroBubble, Schedule::kDualPipe},
      Knob::kSchedule);
  const bool vpp_one = Allowed(c.vpp, int64_t{1});
  for (Schedule s : schedules) {
    if (s != Schedule::kInterleaved) {
      if (vpp_one) out.emplace_back(s, 1);
      continue;
    }
    if (c.vpp) {
      for (int64_t v : *c.vpp) out.emplace_back(s, v);
      continue;
    }
    if (plan.pp == 1) continue;
    for (int64_t v : InterleavedVppValues(model, plan)) out.emplace_back(s, v);
  }
  return out;
}

}  // namespace

std::vector<int64_t> Divisors(int64_t n) {
  std::vector<int64_t> low, high;
  for (int64_t d = 1; d * d <= n; ++d) {
    if (n % d != 0) continue;
    low.push_back(d);
    if (d != n / d) high.push_back(n / d);
  }
  low.insert(low.end(), high.rbegin(), high.rend());
  return low;
}

PlanSpace::PlanSpace(const ModelSpec& model, int64_t gpus, const PlanConstraints& c) : gpus_(gpus) {
  if (gpus <= 0) throw InputError("the GPU count must be > 0, got " + std::to_string(gpus));
  if (!c.global_batch || c.global_batch->empty()) {
    throw InputError(std::string("plan knob '") + KnobName(Knob::kGlobalBatch) +
                     "' must be given (--global-batch B)");
  }
  Globals& g = globals_;
  g.recompute = ValuesOr(c.recompute, {Recompute::kNone, Recompute::kSelective, Recompute::kFull},
                         Knob::kRecompute);
  g.precision = ValuesOr(c.precision, {Precision::kBf16}, Knob::kPrecision);
  g.seq_len = ValuesOr(c.seq_len, {int64_t{0}}, Knob::kSeqLen);
  const ParallelPlan defaults;
  g.moe_routing = ValuesOr(c.moe_routing, {defaults.moe_routing}, Knob::kMoeRouting);
  g.moe_capacity =
      ValuesOr(c.moe_capacity_factor, {defaults.moe_capacity_factor}, Knob::kMoeCapacityFactor);
  g.moe_imbalance = ValuesOr(c.moe_imbalance, {defaults.moe_imbalance}, Knob::kMoeImbalance);
  g.dp_bucket_MB = ValuesOr(c.dp_bucket_MB, {defaults.dp_bucket_MB}, Knob::kDpBucketMB);
  g.dp_comm_dtype = ValuesOr(c.dp_comm_dtype, {defaults.dp_comm_dtype}, Knob::kDpCommDtype);
  g.placement = ValuesOr(c.placement, {defaults.placement}, Knob::kPlacement);
  g.overlap_grad = BoolValues(c.overlap_grad_reduce, {true});
  g.overlap_param = BoolValues(c.overlap_param_gather, {true});
  g.overlap_pp = BoolValues(c.overlap_pp_comm, {true});
  g.zero3_keep = BoolValues(c.zero3_keep_gathered, {false});
  g.grad_fp32 = BoolValues(c.grad_reduce_in_fp32, {true});
  BuildShapes(model, c);
  if (size_ == 0) empty_reason_ = ExplainEmpty(model, c);
}

void PlanSpace::BuildShapes(const ModelSpec& model, const PlanConstraints& c) {
  const bool moe = model.IsMoe();
  for (int64_t tp : IntValues(c.tp, gpus_)) {
    for (int64_t cp : IntValues(c.cp, gpus_ / tp)) {
      for (int64_t pp : IntValues(c.pp, gpus_ / (tp * cp))) {
        const int64_t dp = gpus_ / (tp * cp * pp);
        if (!Allowed(c.dp, dp)) continue;
        if (!c.pp && !c.pp_layers && pp > model.layers) continue;
        // A stated ep may be anything Megatron-Core's MoE parallel folding allows: ep x etp
        // divides tp x cp x dp (plan_rules.cpp, CheckExperts), e.g. ep=32 on tp=2, dp=16; the
        // open search keeps to ep | dp x cp.
        const int64_t ep_ranks = c.ep ? tp * dp * cp : dp * cp;
        const int64_t ep_limit = moe ? std::gcd(ep_ranks, model.moe->experts) : 1;
        std::vector<int64_t> eps = moe ? IntValues(c.ep, ep_limit) : ValuesOr(c.ep, {1}, Knob::kEp);
        std::vector<int64_t> etps =
            ValuesOr(c.etp, tp > 1 && moe ? std::vector<int64_t>{1, tp} : std::vector<int64_t>{1},
                     Knob::kEtp);
        for (int64_t ep : eps) {
          for (int64_t etp : etps) {
            for (int64_t gb : *c.global_batch) {
              SpaceShape shape;
              shape.base.tp = tp;
              shape.base.cp = cp;
              shape.base.pp = pp;
              shape.base.dp = dp;
              shape.base.ep = ep;
              shape.base.etp = etp;
              shape.base.global_batch = gb;
              if (c.pp_layers) shape.base.pp_layers = *c.pp_layers;
              if (c.layout) shape.base.layout = *c.layout;
              if (c.recipe) shape.base.recipe = *c.recipe;
              if (c.kernels) shape.base.kernels = *c.kernels;
              if (!FillShape(model, c, shape)) continue;
              shape.first_index = size_;
              size_ += shape.count;
              shapes_.push_back(std::move(shape));
            }
          }
        }
      }
    }
  }
}

bool PlanSpace::FillShape(const ModelSpec& model, const PlanConstraints& c,
                          SpaceShape& shape) const {
  const ParallelPlan& b = shape.base;
  if (b.global_batch <= 0 || b.global_batch % b.dp != 0) return false;
  shape.micro_batches = IntValues(c.micro_batch, b.global_batch / b.dp);
  shape.schedule_vpp = ScheduleVppValues(model, c, b);
  // Sequence parallelism with tp > 1 only saves memory and traffic: it is the default there.
  shape.sequence_parallel = BoolValues(c.sequence_parallel, {DefaultSequenceParallel(b.tp)});
  if (b.tp == 1 && shape.sequence_parallel.size() > 1) shape.sequence_parallel = {false};
  shape.overlap_tp = BoolValues(
      c.overlap_tp_comm, b.tp > 1 ? std::vector<bool>{false, true} : std::vector<bool>{false});
  const bool ep_comm = model.IsMoe() && b.ep > 1;
  shape.overlap_ep = BoolValues(
      c.overlap_ep_comm, ep_comm ? std::vector<bool>{false, true} : std::vector<bool>{false});
  // With one data-parallel replica there is nothing to shard: ZeRO levels are all the same.
  shape.zero = b.dp * b.cp == 1 && !c.zero ? std::vector<int>{0}
                                           : ValuesOr(c.zero, {0, 1, 2, 3}, Knob::kZero);
  const Globals& g = globals_;
  auto& r = shape.radix;
  auto set = [&r](SpaceKnob k, size_t n) { r[static_cast<int>(k)] = static_cast<int64_t>(n); };
  set(SpaceKnob::kMicroBatch, shape.micro_batches.size());
  set(SpaceKnob::kScheduleVpp, shape.schedule_vpp.size());
  set(SpaceKnob::kRecompute, g.recompute.size());
  set(SpaceKnob::kZero, shape.zero.size());
  set(SpaceKnob::kSequenceParallel, shape.sequence_parallel.size());
  set(SpaceKnob::kOverlapTp, shape.overlap_tp.size());
  set(SpaceKnob::kOverlapEp, shape.overlap_ep.size());
  set(SpaceKnob::kPrecision, g.precision.size());
  set(SpaceKnob::kSeqLen, g.seq_len.size());
  set(SpaceKnob::kMoeRouting, model.IsMoe() ? g.moe_routing.size() : 1);
  set(SpaceKnob::kMoeCapacity, model.IsMoe() ? g.moe_capacity.size() : 1);
  set(SpaceKnob::kMoeImbalance, model.IsMoe() ? g.moe_imbalance.size() : 1);
  set(SpaceKnob::kDpCommDtype, g.dp_comm_dtype.size());
  set(SpaceKnob::kDpBucket, g.dp_bucket_MB.size());
  set(SpaceKnob::kPlacement, g.placement.size());
  set(SpaceKnob::kOverlapGrad, g.overlap_grad.size());
  set(SpaceKnob::kOverlapParam, g.overlap_param.size());
  set(SpaceKnob::kOverlapPp, g.overlap_pp.size());
  set(SpaceKnob::kZero3Keep, g.zero3_keep.size());
  set(SpaceKnob::kGradReduceFp32, g.grad_fp32.size());
  shape.count = 1;
  for (int64_t n : r) shape.count *= n;
  return shape.count > 0;
}

void PlanSpace::Apply(const SpaceShape& s, SpaceKnob knob, int64_t digit,
                      ParallelPlan& plan) const {
  const auto i = static_cast<size_t>(digit);
  const Globals& g = globals_;
  switch (knob) {
    case SpaceKnob::kMicroBatch:
      plan.micro_batch = s.micro_batches[i];
      break;
    case SpaceKnob::kScheduleVpp:
      plan.schedule = s.schedule_vpp[i].first;
      plan.vpp = s.schedule_vpp[i].second;
      break;
    case SpaceKnob::kRecompute:
      plan.recompute = g.recompute[i];
      break;
    case SpaceKnob::kZero:
      plan.zero = s.zero[i];
      break;
    case SpaceKnob::kSequenceParallel:
      plan.sequence_parallel = s.sequence_parallel[i];
      break;
    case SpaceKnob::kOverlapTp:
      plan.overlap_tp_comm = s.overlap_tp[i];
      break;
    case SpaceKnob::kOverlapEp:
      plan.overlap_ep_comm = s.overlap_ep[i];
      break;
    case SpaceKnob::kPrecision:
      plan.precision = g.precision[i];
      break;
    case SpaceKnob::kSeqLen:
      plan.seq_len = g.seq_len[i];
      break;
    case SpaceKnob::kMoeRouting:
      plan.moe_routing = g.moe_routing[i];
      break;
    case SpaceKnob::kMoeCapacity:
      plan.moe_capacity_factor = g.moe_capacity[i];
      break;
    case SpaceKnob::kMoeImbalance:
      plan.moe_imbalance = g.moe_imbalance[i];
      break;
    case SpaceKnob::kDpCommDtype:
      plan.dp_comm_dtype = g.dp_comm_dtype[i];
      break;
    case SpaceKnob::kDpBucket:
      plan.dp_bucket_MB = g.dp_bucket_MB[i];
      break;
    case SpaceKnob::kPlacement:
      plan.placement = g.placement[i];
      break;
    case SpaceKnob::kOverlapGrad:
      plan.overlap_grad_reduce = g.overlap_grad[i];
      break;
    case SpaceKnob::kOverlapParam:
      plan.overlap_param_gather = g.overlap_param[i];
      break;
    case SpaceKnob::kOverlapPp:
      plan.overlap_pp_comm = g.overlap_pp[i];
      break;
    case SpaceKnob::kZero3Keep:
      plan.zero3_keep_gathered = g.zero3_keep[i];
      break;
    case SpaceKnob::kGradReduceFp32:
      plan.grad_reduce_in_fp32 = g.grad_fp32[i];
      break;
    case SpaceKnob::kCount:
      break;
  }
}

ParallelPlan PlanSpace::At(int64_t index) const {
  return PlanCursor(*this, index).plan();
}

std::string PlanSpace::ExplainEmpty(const ModelSpec& model, const PlanConstraints& c) const {
  std::string gpus = std::to_string(gpus_);
  bool any_shape = false;
  for (int64_t tp : IntValues(c.tp, gpus_)) {
    for (int64_t cp : IntValues(c.cp, gpus_ / tp)) {
      for (int64_t pp : IntValues(c.pp, gpus_ / (tp * cp))) {
        if (Allowed(c.dp, gpus_ / (tp * cp * pp)) && (c.pp || pp <= model.layers)) {
          any_shape = true;
        }
      }
    }
  }
  if (!any_shape) {
    return "no choice of tp, cp, dp and pp allowed by --plan multiplies to " + gpus +
           " GPUs (gpus = tp x cp x dp x pp, pp <= " + std::to_string(model.layers) + " layers)";
  }
  return "no plan divides the global batch: it must be a multiple of micro_batch x dp for an "
         "allowed micro_batch and dp, and --plan must leave a schedule and vpp that fit the "
         "stage layers";
}

PlanCursor::PlanCursor(const PlanSpace& space, int64_t index) : space_(&space) {
  Seek(index);
}

void PlanCursor::Seek(int64_t index) {
  index_ = index;
  const auto& shapes = space_->shapes();
  if (index >= space_->size() || index < 0) {
    index_ = space_->size();
    return;
  }
  auto it = std::upper_bound(shapes.begin(), shapes.end(), index,
                             [](int64_t i, const SpaceShape& s) { return i < s.first_index; });
  shape_ = static_cast<size_t>(it - shapes.begin()) - 1;
  const SpaceShape& s = shapes[shape_];
  int64_t local = index - s.first_index;
  plan_ = s.base;
  for (int k = 0; k < kSpaceKnobs; ++k) {
    digits_[k] = local % s.radix[k];
    local /= s.radix[k];
    space_->Apply(s, static_cast<SpaceKnob>(k), digits_[k], plan_);
  }
}

void PlanCursor::Next() {
  ++index_;
  if (index_ >= space_->size()) {
    index_ = space_->size();
    return;
  }
  const SpaceShape& s = space_->shapes()[shape_];
  for (int k = 0; k < kSpaceKnobs; ++k) {
    if (++digits_[k] < s.radix[k]) {
      space_->Apply(s, static_cast<SpaceKnob>(k), digits_[k], plan_);
      return;
    }
    digits_[k] = 0;
    space_->Apply(s, static_cast<SpaceKnob>(k), 0, plan_);
  }
  Seek(index_);  // past this shape's last plan: start the next shape
}

}  // namespace paraplan
