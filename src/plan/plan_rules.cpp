// The rules a plan must obey (plan_rules.h). Each rule is a small check that appends a sentence;
// `first_only` returns at the first violation so the search can reject plans cheaply.
#include "plan/plan_rules.h"

#include <algorithm>
#include <cstdint>
#include <numeric>

#include "core/format.h"
#include "plan/knob_bounds.h"
#include "plan/knob_table.h"
#include "plan/stage_layout.h"

namespace paraplan {
namespace {

std::string Str(int64_t v) {
  return std::to_string(v);
}

// Collects violations; Add() returns true when the caller should stop (first_only and one found).
class Violations {
 public:
  explicit Violations(bool first_only) : first_only_(first_only) {}
  bool Add(std::string message) {
    list_.push_back(std::move(message));
    return first_only_;
  }
  std::vector<std::string> Take() { return std::move(list_); }

 private:
  bool first_only_;
  std::vector<std::string> list_;
};

// Sizes are positive and multiply to the GPU count. Returns true to stop.
bool CheckSizes(const ModelSpec& model, int64_t gpus, const ParallelPlan& p, Violations& v) {
  const std::pair<const char*, int64_t> sizes[] = {{KnobName(Knob::kTp), p.tp},
                                                   {KnobName(Knob::kPp), p.pp},
                                                   {KnobName(Knob::kDp), p.dp},
                                                   {KnobName(Knob::kCp), p.cp},
                                                   {KnobName(Knob::kEp), p.ep},
                                                   {KnobName(Knob::kEtp), p.etp},
                                                   {KnobName(Knob::kVpp), p.vpp},
                                                   {KnobName(Knob::kMicroBatch), p.micro_batch},
                                                   {KnobName(Knob::kGlobalBatch), p.global_batch}};
  bool bad = false;
  for (const auto& [name, value] : sizes) {
    if (value < 1) {
      bad = true;
      if (v.Add(std::string(name) + " must be >= 1, got " + Str(value))) return true;
    }
  }
  if (bad) return true;  // the products below would be meaningless
  // Overflow-checked: four knobs of up to 2^24 each would wrap int64.
  int64_t product = 1;
  const bool wraps = __builtin_mul_overflow(product, p.tp, &product) ||
                     __builtin_mul_overflow(product, p.cp, &product) ||
                     __builtin_mul_overflow(product, p.dp, &product) ||
                     __builtin_mul_overflow(product, p.pp, &product);
  if (wraps) {
    v.Add("tp*cp*dp*pp = " + Str(p.tp) + "*" + Str(p.cp) + "*" + Str(p.dp) + "*" + Str(p.pp) +
          " is past 2^63, not the GPU count " + Str(gpus));
    return true;
  }
  if (p.Gpus() != gpus &&
      v.Add("tp*cp*dp*pp = " + Str(p.tp) + "*" + Str(p.cp) + "*" + Str(p.dp) + "*" + Str(p.pp) +
            " = " + Str(p.Gpus()) + " must equal the GPU count " + Str(gpus)))
    return true;
  if (p.seq_len < 0 && v.Add("seq_len must be >= 0 (0 = the model's), got " + Str(p.seq_len)))
    return true;
  (void)model;
  return false;
}

bool CheckTensor(const ModelSpec& m, const ParallelPlan& p, Violations& v) {
  if (m.heads % p.tp != 0 && v.Add("tp=" + Str(p.tp) + " does not divide heads=" + Str(m.heads)))
    return true;
  const int64_t kv = m.kv_heads > 0 ? m.kv_heads : m.heads;
  if (m.attention_kind != AttentionKind::kMla && kv % p.tp != 0 && p.tp % kv != 0 &&
      v.Add("tp=" + Str(p.tp) + " and kv_heads=" + Str(kv) +
            " must divide one another (kv heads are split or replicated)"))
    return true;
  if (m.ffn_hidden > 0 && m.ffn_hidden % p.tp != 0 &&
      v.Add("tp=" + Str(p.tp) + " does not divide ffn_hidden=" + Str(m.ffn_hidden)))
    return true;
  return false;
}

bool CheckSequence(const ModelSpec& m, const ParallelPlan& p, Violations& v) {
  const int64_t seq = p.seq_len > 0 ? p.seq_len : m.seq_len;
  // Load-balanced causal context parallelism splits the sequence into 2*cp chunks.
  if (p.cp > 1 && seq % (2 * p.cp) != 0 &&
      v.Add("cp=" + Str(p.cp) + ": seq_len=" + Str(seq) +
            " must be divisible by 2*cp (load-balanced causal chunks)"))
    return true;
  if (p.sequence_parallel && p.tp > 1 && seq % p.tp != 0 &&
      v.Add("sequence_parallel: seq_len=" + Str(seq) + " must be divisible by tp=" + Str(p.tp)))
    return true;
  // Packed documents are costed on one rank's whole sequence (cost/plan_shape.h AttentionSpan);
  // how a ring would split them is not modelled.
  if (p.kernels.packed_doc_tokens > 0 && p.cp > 1 &&
      v.Add(std::string(KnobName(Knob::kPackedDocTokens)) + " needs cp=1, got cp=" + Str(p.cp) +
            " (packed documents under context parallelism are not modelled)"))
    return true;
  return false;
}

bool CheckExperts(const ModelSpec& m, const ParallelPlan& p, Violations& v) {
  if (!m.IsMoe()) {
    if ((p.ep > 1 || p.etp > 1) && v.Add("ep=" + Str(p.ep) + ", etp=" + Str(p.etp) +
                                         ": the model has no experts (ep and "
                                         "etp must be 1)"))
      return true;
    return false;
  }
  if (m.moe->experts % p.ep != 0 &&
      v.Add("ep=" + Str(p.ep) + " does not divide experts=" + Str(m.moe->experts)))
    return true;
  const int64_t dense_ranks = p.tp * p.cp * p.dp;
  if (dense_ranks % (p.ep * p.etp) != 0 &&
      v.Add("ep*etp=" + Str(p.ep * p.etp) + " must divide tp*cp*dp=" + Str(dense_ranks) +
            " (expert-data-parallel size must be whole)"))
    return true;
  if (m.moe->expert_ffn_hidden % p.etp != 0 &&
      v.Add("etp=" + Str(p.etp) +
            " does not divide expert_ffn_hidden=" + Str(m.moe->expert_ffn_hidden)))
    return true;
  if (p.moe_imbalance < 1.0 &&
      v.Add("moe_imbalance must be >= 1 (max/mean tokens per expert), got " +
            std::to_string(p.moe_imbalance)))
    return true;
  if (p.moe_capacity_factor <= 0 &&
      v.Add("moe_capacity_factor must be > 0, got " + std::to_string(p.moe_capacity_factor)))
    return true;
  // Megatron-Core asserts a capacity factor under --moe-pad-expert-input-to-capacity.
  if (p.kernels.moe_pad_to_capacity && p.moe_routing != MoeRouting::kDrop &&
      v.Add("moe_pad_to_capacity needs moe_routing=drop (padding fills each expert to its "
            "capacity)"))
    return true;
  return false;
}

bool CheckPipelineLayers(const ModelSpec& m, const ParallelPlan& p, Violations& v) {
  if (p.pp > m.layers &&
      v.Add("pp=" + Str(p.pp) + " exceeds layers=" + Str(m.layers) + " (a stage needs a layer)"))
    return true;
  std::vector<int64_t> layout;
  const std::string error = ResolveVirtualLayers(m.layers, m.mtp_layers, p, &layout);
  if (!error.empty() && v.Add(error)) return true;
  // An automatic layout balances the virtual stages; the first and the last may hold only the
  // embedding or the loss, every other needs a layer.
  const int64_t stages = VirtualStages(p);
  if (!HasFixedLayout(p) && p.vpp > 1 && stages > m.layers + 2 &&
      v.Add("vpp=" + Str(p.vpp) + ": pp*vpp=" + Str(stages) + " virtual stages need at least " +
            Str(stages - 2) + " layers, the model has " + Str(m.layers)))
    return true;
  return false;
}

bool CheckSchedule(const ParallelPlan& p, Violations& v) {
  const int64_t m = p.MicroBatches();
  if (p.vpp > 1 && p.schedule != Schedule::kInterleaved &&
      v.Add("vpp=" + Str(p.vpp) + " needs schedule=interleaved, got " + ToString(p.schedule)))
    return true;
  if (p.schedule == Schedule::kInterleaved) {
    if (p.pp < 2 && v.Add("schedule=interleaved needs pp >= 2")) return true;
    if (p.vpp > 1 && m % p.pp != 0 &&
        v.Add("schedule=interleaved: micro-batches=" + Str(m) +
              " must be a multiple of pp=" + Str(p.pp)))
      return true;
  }
  if (p.schedule == Schedule::kDualPipe) {
    if (p.pp % 2 != 0 && v.Add("schedule=dualpipe needs an even pp, got " + Str(p.pp))) return true;
    if (m < 2 * p.pp &&
        v.Add("schedule=dualpipe needs micro-batches >= 2*pp=" + Str(2 * p.pp) + ", got " + Str(m)))
      return true;
    // DualPipe feeds micro-batches from both ends in pairs (sim/schedule_dualpipe.cpp).
    if (m % 2 != 0 &&
        v.Add("schedule=dualpipe needs an even number of micro-batches, got " + Str(m)))
      return true;
  }
  return false;
}

bool CheckBatchAndKnobs(const ModelSpec& m, const Cluster& c, const ParallelPlan& p,
                        Violations& v) {
  int64_t per_micro_batch = 0;  // sequences of one micro-batch across dp, overflow-checked
  if (__builtin_mul_overflow(p.micro_batch, p.dp, &per_micro_batch)) per_micro_batch = INT64_MAX;
  if (p.global_batch % per_micro_batch != 0 &&
      v.Add("global_batch=" + Str(p.global_batch) +
            " must be divisible by micro_batch*dp=" + Str(p.micro_batch) + "*" + Str(p.dp)))
    return true;
  // The simulator runs every micro-batch of the step on every (virtual) stage: bounded so that
  // one plan simulates in well under a second (knob_bounds.h).
  const int64_t micro_batches = p.global_batch / per_micro_batch;
  if (micro_batches > kMaxMicroBatches &&
      v.Add("micro-batches per step=" + Str(micro_batches) + " is more than " +
            Str(kMaxMicroBatches) + " (paraplan's bound): use a larger micro_batch or more dp"))
    return true;
  int64_t stages = 0, tasks = 0;  // overflow-checked
  if (__builtin_mul_overflow(p.pp, std::max<int64_t>(p.vpp, 1), &stages) ||
      __builtin_mul_overflow(micro_batches, stages, &tasks)) {
    tasks = INT64_MAX;
  }
  if (tasks > kMaxPipelineTasks &&
      v.Add("micro-batches x pp x vpp=" + Str(micro_batches) + "*" + Str(stages) +
            " is more than " + Str(kMaxPipelineTasks) +
            " (paraplan's bound on the simulated pipeline): use fewer micro-batches or stages"))
    return true;
  if (p.zero < 0 || p.zero > 3) {
    if (v.Add("zero must be 0, 1, 2 or 3, got " + std::to_string(p.zero))) return true;
  }
  if (p.precision == Precision::kFp8 && c.gpu.peak_tflops.fp8 <= 0 &&
      v.Add("precision=fp8 needs a GPU with fp8 tensor cores; " + c.gpu.name + " has no fp8 peak"))
    return true;
  if ((p.dp_bucket_MB < 0 || (p.dp_bucket_MB > 0 && p.dp_bucket_MB < kMinDpBucketMB) ||
       p.dp_bucket_MB > kMaxDpBucketMB) &&
      v.Add("dp_bucket_MB must be 0 (automatic) or from " + BoundText(kMinDpBucketMB) + " to " +
            BoundText(kMaxDpBucketMB) + " MB, got " + FormatShortest(p.dp_bucket_MB)))
    return true;
  if (p.recipe.optimizer_offload > 0 && c.gpu.host_link_GBps <= 0 &&
      v.Add("optimizer_offload needs the GPU's host link bandwidth (gpu.host_link_GBps); " +
            c.gpu.name + " does not state one"))
    return true;
  // Megatron-Core asserts "`moe_apply_probs_on_input` only works with `moe_router_topk`=1"
  // (megatron/core/transformer/moe/experts.py).
  if (p.recipe.moe_probs == MoeProbs::kInput && m.IsMoe() && m.moe->top_k != 1 &&
      v.Add("moe_probs=input (--moe-apply-probs-on-input) needs top-1 routing; " + m.name +
            " routes to " + Str(m.moe->top_k) + " experts"))
    return true;
  return false;
}

bool CheckPlacement(const ParallelPlan& p, Violations& v) {
  bool seen[5] = {false, false, false, false, false};
  for (ParallelDim d : p.placement) {
    const int i = static_cast<int>(d);
    if (seen[i]) {
      return v.Add(std::string("placement names ") + ToString(d) +
                   " twice; it must order tp, cp, ep, dp and pp once each");
    }
    seen[i] = true;
  }
  return false;
}

}  // namespace

std::vector<std::string> PlanViolations(const ModelSpec& model, const Cluster& cluster,
                                        int64_t gpus, const ParallelPlan& plan, bool first_only) {
  Violations v(first_only);
  if (CheckSizes(model, gpus, plan, v)) return v.Take();
  if (CheckTensor(model, plan, v)) return v.Take();
  if (CheckSequence(model, plan, v)) return v.Take();
  if (CheckExperts(model, plan, v)) return v.Take();
  if (CheckPipelineLayers(model, plan, v)) return v.Take();
  if (CheckBatchAndKnobs(model, cluster, plan, v)) return v.Take();
  if (CheckSchedule(plan, v)) return v.Take();
  CheckPlacement(plan, v);
  return v.Take();
}

}  // namespace paraplan
