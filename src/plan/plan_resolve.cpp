#include "plan/plan_resolve.h"

#include <sstream>
#include <string>

#include "core/error.h"
#include "plan/knob_table.h"
#include "plan/plan_defaults.h"

namespace paraplan {
namespace {

template <typename T>
std::string ValueText(const T& v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v ? "true" : "false";
  } else if constexpr (std::is_arithmetic_v<T>) {
    std::ostringstream s;
    s << v;
    return s.str();
  } else if constexpr (std::is_same_v<T, std::array<ParallelDim, 5>>) {
    return PlacementToString(v);
  } else {
    return ToString(v);
  }
}

// Takes the single value of `choice` into `*out`; leaves *out alone when the knob is free.
template <typename T>
void Take(const Choice<T>& choice, Knob knob, T* out) {
  if (!choice) return;
  if (choice->size() != 1) {
    std::string values;
    for (const T& v : *choice) values += (values.empty() ? "" : "|") + ValueText(v);
    throw InputError(std::string("simulate needs one value for ") + KnobName(knob) + ", got " +
                     (values.empty() ? "none" : values));
  }
  *out = choice->front();
}

}  // namespace

ParallelPlan ResolvePlan(const PlanConstraints& c, int64_t gpus, const ModelSpec& model) {
  ParallelPlan p;
  Take(c.tp, Knob::kTp, &p.tp);
  Take(c.pp, Knob::kPp, &p.pp);
  Take(c.cp, Knob::kCp, &p.cp);
  Take(c.ep, Knob::kEp, &p.ep);
  Take(c.etp, Knob::kEtp, &p.etp);
  Take(c.vpp, Knob::kVpp, &p.vpp);
  Take(c.micro_batch, Knob::kMicroBatch, &p.micro_batch);
  Take(c.seq_len, Knob::kSeqLen, &p.seq_len);
  Take(c.recompute, Knob::kRecompute, &p.recompute);
  p.sequence_parallel = DefaultSequenceParallel(p.tp);  // as `plan` assumes
  Take(c.sequence_parallel, Knob::kSequenceParallel, &p.sequence_parallel);
  Take(c.zero, Knob::kZero, &p.zero);
  Take(c.precision, Knob::kPrecision, &p.precision);
  Take(c.schedule, Knob::kSchedule, &p.schedule);
  Take(c.moe_routing, Knob::kMoeRouting, &p.moe_routing);
  Take(c.moe_capacity_factor, Knob::kMoeCapacityFactor, &p.moe_capacity_factor);
  Take(c.moe_imbalance, Knob::kMoeImbalance, &p.moe_imbalance);
  Take(c.dp_bucket_MB, Knob::kDpBucketMB, &p.dp_bucket_MB);
  Take(c.dp_comm_dtype, Knob::kDpCommDtype, &p.dp_comm_dtype);
  Take(c.placement, Knob::kPlacement, &p.placement);
  Take(c.overlap_grad_reduce, Knob::kOverlapGradReduce, &p.overlap_grad_reduce);
  Take(c.overlap_param_gather, Knob::kOverlapParamGather, &p.overlap_param_gather);
  Take(c.overlap_tp_comm, Knob::kOverlapTpComm, &p.overlap_tp_comm);
  Take(c.overlap_ep_comm, Knob::kOverlapEpComm, &p.overlap_ep_comm);
  Take(c.overlap_pp_comm, Knob::kOverlapPpComm, &p.overlap_pp_comm);
  Take(c.zero3_keep_gathered, Knob::kZero3KeepGathered, &p.zero3_keep_gathered);
  Take(c.grad_reduce_in_fp32, Knob::kGradReduceInFp32, &p.grad_reduce_in_fp32);
  if (c.pp_layers) p.pp_layers = *c.pp_layers;
  if (c.layout) p.layout = *c.layout;
  if (c.recipe) p.recipe = *c.recipe;
  if (c.kernels) p.kernels = *c.kernels;
  // Naming recompute modules asks for selective recompute (Megatron-LM's granularity).
  if (c.recipe && c.recipe->recompute_modules != 0 && !c.recompute) {
    p.recompute = Recompute::kSelective;
  }
  if (!c.global_batch) {
    throw InputError(
        "simulate needs global_batch (sequences per step), e.g. --plan "
        "\"global_batch=1024,...\"");
  }
  Take(c.global_batch, Knob::kGlobalBatch, &p.global_batch);
  // An interleaved schedule is implied by vpp > 1 when no schedule was given.
  if (!c.schedule && p.vpp > 1) p.schedule = Schedule::kInterleaved;
  const int64_t model_parallel = p.tp * p.cp * p.pp;
  if (c.dp) {
    Take(c.dp, Knob::kDp, &p.dp);
  } else {
    if (model_parallel < 1 || gpus % model_parallel != 0) {
      throw InputError("cannot derive dp: " + std::to_string(gpus) +
                       " GPUs are not divisible by tp*cp*pp=" + std::to_string(model_parallel));
    }
    p.dp = gpus / model_parallel;
  }
  (void)model;
  return p;
}

}  // namespace paraplan
