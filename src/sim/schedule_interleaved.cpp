// Interleaved 1F1B (Narayanan et al. 2021, SC'21, section 2.2; Megatron-LM's
// forward_backward_pipelining_with_interleaving). Each stage holds vpp model chunks; chunk c of
// stage s is virtual stage c * pp + s. Micro-batches go in groups of pp: a stage runs the
// group's forwards through chunk 0, then chunk 1, ..., and its backwards through the chunks in
// reverse. Stage s runs (pp - s - 1) * 2 + (vpp - 1) * pp warm-up forwards, then one forward
// and one backward per step, then the remaining backwards. The bubble shrinks by vpp at the cost
// of vpp times more point-to-point transfers and about pp (1 + (pp - 1) / (pp vpp)) micro-batches
// of activations on stage 0.
#include <algorithm>
#include <utility>

#include "sim/schedule.h"

namespace paraplan {
namespace {

// Megatron's schedule table: (micro-batch, chunk) of the k-th forward on every stage. When m is
// not a multiple of pp the last group is shorter.
std::vector<std::pair<int64_t, int64_t>> ForwardOrder(int64_t m, int64_t vpp, int64_t group) {
  std::vector<std::pair<int64_t, int64_t>> order;
  order.reserve(static_cast<size_t>(m * vpp));
  for (int64_t first = 0; first < m; first += group) {
    const int64_t end = std::min(first + group, m);
    for (int64_t c = 0; c < vpp; ++c) {
      for (int64_t i = first; i < end; ++i) order.emplace_back(i, c);
    }
  }
  return order;
}

}  // namespace

TaskLists InterleavedTasks(const ScheduleShape& shape) {
  const int64_t m = shape.micro_batches;
  const int64_t pp = shape.pp;
  const int64_t vpp = shape.vpp;
  const auto order = ForwardOrder(m, vpp, pp);
  const int64_t total = m * vpp;
  TaskListBuilder builder(pp * 2 * total);
  for (int64_t s = 0; s < pp; ++s) {
    const int64_t warmup = std::min((pp - s - 1) * 2 + (vpp - 1) * pp, total);
    auto forward = [&](int64_t k) {
      builder.Add(TaskKind::kForward, order[k].first, order[k].second);
    };
    auto backward = [&](int64_t k) {
      builder.Add(TaskKind::kBackward, order[k].first, vpp - 1 - order[k].second);
    };
    for (int64_t k = 0; k < warmup; ++k) forward(k);
    for (int64_t k = 0; k < total - warmup; ++k) {
      forward(k + warmup);
      backward(k);
    }
    for (int64_t k = total - warmup; k < total; ++k) backward(k);
    builder.EndStage();
  }
  return builder.Take();
}

}  // namespace paraplan
