// PyTorch's multi-stage pipeline runtime (torch.distributed.pipelining, PipelineScheduleMulti.
// _step_microbatches, as torchtitan ran it in Dec 2024) executes ScheduleInterleaved1F1B as a
// grid of time steps: rank r idles r steps, runs its warm-up forwards one per step, idles
// pp * vpp + 2 (pp - 1 - r) - (warm-up + r) steps for the first backward to come back, runs the
// steady state one forward or backward per step, and in the cool-down idles one step before
// each backward (_get_1f1b_rank_ops; warm-up (vpp - 1) pp + 2 (pp - 1 - r), capped at vpp m).
// Its per-rank order is Megatron-LM's (schedule_interleaved.cpp) whenever micro_batches is a
// multiple of pp, which PyTorch's ScheduleInterleaved1F1B requires; this file only numbers the
// steps of that order.
#include <algorithm>
#include <stdexcept>
#include <string>

#include "sim/schedule.h"

namespace paraplan {
namespace {

[[noreturn]] void Mismatch(int64_t stage, int64_t op) {
  throw std::logic_error("PytorchInterleavedSteps: stage " + std::to_string(stage) + " op " +
                         std::to_string(op) + " is not PyTorch's interleaved order");
}

}  // namespace

std::vector<int32_t> PytorchInterleavedSteps(const TaskLists& lists, const ScheduleShape& shape) {
  const int64_t pp = shape.pp, vpp = shape.vpp;
  const int64_t total = vpp * shape.micro_batches;  // forwards (and backwards) per rank
  std::vector<int32_t> steps(lists.tasks.size(), 0);
  for (int64_t r = 0; r < pp; ++r) {
    const int64_t warmup = std::min((vpp - 1) * pp + 2 * (pp - 1 - r), total);
    const int64_t wait = vpp * pp + 2 * (pp - 1 - r) - (warmup + r);
    const int64_t steady_end = warmup + 2 * (total - warmup);  // ops before the cool-down
    int64_t step = r;
    int64_t op = 0;  // forwards and backwards seen (a recompute shares its backward's step)
    const int64_t begin = lists.stage_begin[r], end = lists.stage_begin[r + 1];
    for (int64_t k = begin; k < end; ++k) {
      const TaskKind kind = lists.tasks[k].kind;
      if (kind == TaskKind::kRecompute) continue;  // numbered with the backward after it
      bool forward_expected = op < warmup || (op < steady_end && (op - warmup) % 2 == 0);
      if (op >= steady_end) ++step;  // the cool-down's idle step before each backward
      if (forward_expected != (kind == TaskKind::kForward) ||
          (!forward_expected && !IsBackward(kind))) {
        Mismatch(r, op);
      }
      steps[k] = static_cast<int32_t>(step);
      for (int64_t j = k - 1; j >= begin && lists.tasks[j].kind == TaskKind::kRecompute; --j) {
        steps[j] = steps[k];
      }
      ++step;
      if (op == warmup - 1) step += wait;
      ++op;
    }
    if (op != 2 * total) Mismatch(r, op);
  }
  return steps;
}

}  // namespace paraplan
