// How a schedule's tasks map onto stages: which model chunk a (stage, chunk) pair is, where a
// micro-batch's activations go after it and where its gradients come from, and what each task
// costs. Shared by the simulator's run, its critical-path walk and its DP tail.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/pipeline_input.h"
#include "sim/schedule.h"

namespace paraplan {

// A (stage, chunk) place on a micro-batch's route; stage < 0 means "none".
struct Place {
  int64_t stage = -1;
  int64_t chunk = 0;
  bool Valid() const { return stage >= 0; }
};

// The data-parallel work of one stage as the simulator runs it (for DualPipe with one chunk per
// input stage: the sum over the two model stages the rank holds). Not cost/plan_evaluation.h's
// StageDp: two classes of one name in one namespace break the one-definition rule (the linker
// may keep either's inline members for both).
struct StageDpWork {
  Nanos grad_comm = 0;
  int64_t buckets = 1;
  Nanos param_gather = 0;
  Nanos optimizer = 0;
  double sm_share = 0;  // StageCost::dp_sm_share (DualPipe: the larger of the two stages')
  double nic_rate_fwd = 1, nic_rate_bwd = 1;  // (DualPipe: the smaller)
};

class PipelineLayout {
 public:
  // Checks the input (InputError on a wrong stage or chunk count, negative times, p2p < 0).
  explicit PipelineLayout(const PipelineInput& input);

  int64_t Stages() const { return pp_; }
  int64_t Chunks() const { return chunks_; }
  int64_t MicroBatches() const { return micro_batches_; }
  bool Dual() const { return dual_; }

  // Next, Previous and Duration are defined below the class, inline: the run calls them once or
  // twice per task.

  // Index of (micro-batch, stage, chunk) into per-place arrays of size Places(). Stage-major, so
  // that a stage working through its micro-batches walks memory in order (cache and TLB).
  int64_t PlaceIndex(int64_t micro_batch, int64_t stage, int64_t chunk) const {
    return (stage * chunks_ + chunk) * micro_batches_ + micro_batch;
  }
  int64_t Places() const { return micro_batches_ * pp_ * chunks_; }

  // Where the forward output of (stage, chunk) goes; invalid on the route's last place.
  Place Next(int64_t stage, int64_t chunk) const;
  // Where the backward output of (stage, chunk) goes; invalid on the route's first place.
  Place Previous(int64_t stage, int64_t chunk) const;
  // Where the output of `task` on `stage` goes: Next for a forward, Previous for a backward (full
  // or input half); invalid for recompute and weight tasks and at the route's ends.
  Place Destination(int64_t stage, const Task& task) const {
    if (task.kind == TaskKind::kForward) return Next(stage, task.chunk);
    if (IsBackward(task.kind)) return Previous(stage, task.chunk);
    return Place{};
  }
  bool IsFirst(int64_t stage, int64_t chunk) const { return !Previous(stage, chunk).Valid(); }
  bool IsLast(int64_t stage, int64_t chunk) const { return !Next(stage, chunk).Valid(); }

  // Compute time of `task` on `stage`.
  Nanos Duration(int64_t stage, const Task& task) const;
  const ChunkCost& Cost(int64_t stage, int64_t chunk) const {
    return costs_[stage * chunks_ + chunk];
  }
  const StageDpWork& Dp(int64_t stage) const { return dp_[stage]; }
  // Per stage and chunk: whether a recompute task runs before each backward.
  std::vector<bool> HasRecompute() const;

 private:
  int64_t pp_ = 1;
  int64_t chunks_ = 1;
  int64_t micro_batches_ = 1;
  bool dual_ = false;
  std::vector<ChunkCost> costs_;  // [stage * chunks + chunk]
  std::vector<StageDpWork> dp_;
};

inline Place PipelineLayout::Next(int64_t stage, int64_t chunk) const {
  if (dual_) {
    if (chunk == 0) return stage + 1 < pp_ ? Place{stage + 1, 0} : Place{};
    return stage > 0 ? Place{stage - 1, 1} : Place{};
  }
  if (stage + 1 < pp_) return Place{stage + 1, chunk};
  return chunk + 1 < chunks_ ? Place{0, chunk + 1} : Place{};
}

inline Place PipelineLayout::Previous(int64_t stage, int64_t chunk) const {
  if (dual_) {
    if (chunk == 0) return stage > 0 ? Place{stage - 1, 0} : Place{};
    return stage + 1 < pp_ ? Place{stage + 1, 1} : Place{};
  }
  if (stage > 0) return Place{stage - 1, chunk};
  return chunk > 0 ? Place{pp_ - 1, chunk - 1} : Place{};
}

inline Nanos PipelineLayout::Duration(int64_t stage, const Task& task) const {
  const ChunkCost& c = costs_[stage * chunks_ + task.chunk];
  switch (task.kind) {
    case TaskKind::kForward:
      return c.forward;
    case TaskKind::kBackward:
      return c.backward_input + c.backward_weight;
    case TaskKind::kBackwardInput:
      return c.backward_input;
    case TaskKind::kWeight:
      return c.backward_weight;
    case TaskKind::kRecompute:
      return c.recompute;
  }
  return 0;
}

}  // namespace paraplan
