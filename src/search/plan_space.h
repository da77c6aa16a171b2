// PlanSpace: every plan that PlanConstraints allow for a model and a GPU count, enumerated
// lazily. The parallel shape (tp, cp, dp, pp, ep, etp, global batch) is listed up front (a few
// thousand at most); the knobs inside a shape (micro-batch, schedule × vpp, recompute, ZeRO, ...)
// form a mixed-radix number, so a flat index names one plan and the space splits into chunks that
// any thread can decode on its own — the basis of the search's determinism.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/model_spec.h"
#include "plan/parallel_plan.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// The knobs that vary inside one parallel shape, innermost (fastest-changing) first.
enum class SpaceKnob : int {
  kMicroBatch,
  kScheduleVpp,
  kRecompute,
  kZero,
  kSequenceParallel,
  kOverlapTp,
  kOverlapEp,
  kPrecision,
  kSeqLen,
  kMoeRouting,
  kMoeCapacity,
  kMoeImbalance,
  kDpCommDtype,
  kDpBucket,
  kPlacement,
  kOverlapGrad,
  kOverlapParam,
  kOverlapPp,
  kZero3Keep,
  kGradReduceFp32,
  kCount
};
inline constexpr int kSpaceKnobs = static_cast<int>(SpaceKnob::kCount);

// One parallel shape and the knob values that depend on it.
struct SpaceShape {
  ParallelPlan base;  // tp, cp, dp, pp, ep, etp, global_batch and pp_layers set
  std::vector<int64_t> micro_batches;
  std::vector<std::pair<Schedule, int64_t>> schedule_vpp;
  std::vector<bool> sequence_parallel, overlap_tp, overlap_ep;
  std::vector<int> zero;
  std::array<int64_t, kSpaceKnobs> radix{};
  int64_t count = 0;        // plans in this shape (product of radix)
  int64_t first_index = 0;  // flat index of its first plan
};

class PlanSpace {
 public:
  // Throws InputError when the constraints are malformed (no global batch, an empty list).
  PlanSpace(const ModelSpec& model, int64_t gpus, const PlanConstraints& constraints);

  int64_t size() const { return size_; }
  int64_t gpus() const { return gpus_; }
  const std::vector<SpaceShape>& shapes() const { return shapes_; }

  // The plan at a flat index in [0, size()).
  ParallelPlan At(int64_t index) const;

  // Why the space is empty, in a sentence (empty string when it is not).
  const std::string& EmptyReason() const { return empty_reason_; }

  // Applies digit `digit` of knob `knob` of `shape` to `plan` (used by PlanCursor).
  void Apply(const SpaceShape& shape, SpaceKnob knob, int64_t digit, ParallelPlan& plan) const;

 private:
  struct Globals {
    std::vector<Recompute> recompute;
    std::vector<Precision> precision;
    std::vector<int64_t> seq_len;
    std::vector<MoeRouting> moe_routing;
    std::vector<double> moe_capacity, moe_imbalance, dp_bucket_MB;
    std::vector<CommDtype> dp_comm_dtype;
    std::vector<std::array<ParallelDim, 5>> placement;
    std::vector<bool> overlap_grad, overlap_param, overlap_pp, zero3_keep, grad_fp32;
  };
  void BuildShapes(const ModelSpec& model, const PlanConstraints& constraints);
  bool FillShape(const ModelSpec& model, const PlanConstraints& c, SpaceShape& shape) const;
  std::string ExplainEmpty(const ModelSpec& model, const PlanConstraints& c) const;

  int64_t gpus_ = 0;
  Globals globals_;
  std::vector<SpaceShape> shapes_;
  int64_t size_ = 0;
  std::string empty_reason_;
};

// Walks the space from a flat index, one plan at a time, re-applying only the knobs that change
// (an odometer): far cheaper than decoding every index.
class PlanCursor {
 public:
  PlanCursor(const PlanSpace& space, int64_t index);
  const ParallelPlan& plan() const { return plan_; }
  int64_t index() const { return index_; }
  bool AtEnd() const { return index_ >= space_->size(); }
  size_t shape_index() const { return shape_; }
  const std::array<int64_t, kSpaceKnobs>& digits() const { return digits_; }
  void Next();

 private:
  void Seek(int64_t index);
  const PlanSpace* space_;
  size_t shape_ = 0;
  std::array<int64_t, kSpaceKnobs> digits_{};
  ParallelPlan plan_;
  int64_t index_ = 0;
};

// Positive divisors of n, ascending.
std::vector<int64_t> Divisors(int64_t n);

}  // namespace paraplan
