// DualPipe (DeepSeek-AI 2024, "DeepSeek-V3 Technical Report", section 3.2.1, and the order of
// deepseek-ai/DualPipe). Micro-batches are fed from both ends: the first half enters at stage 0
// (direction 0, chunk 0), the second half at stage pp - 1 (direction 1, chunk 1). Rank r holds
// model stage r for direction 0 and model stage pp - 1 - r for direction 1 (two parameter
// copies). Each rank follows eight phases: forwards to fill both directions, a zero-bubble
// warm-up, the steady "F0 B1 F1 B0" pairs, backwards, and deferred weight gradients.
//
// Simplification: the real schedule overlaps a forward of one direction with a backward of the
// other on the same GPU (hiding expert-parallel all-to-all); here the pair runs back to back on
// the compute stream, so the timings are those of DualPipe without that overlap.
#include <deque>

#include "sim/schedule.h"

namespace paraplan {
namespace {

// One rank's list. "Phase" 0 is the direction in which this rank sits in the first half of the
// pipeline (direction 0 for r < pp / 2, direction 1 otherwise), as in the reference code.
class DualPipeRank {
 public:
  DualPipeRank(TaskListBuilder& builder, int64_t rank, int64_t pp, int64_t half_m)
      : builder_(builder), second_half_(rank >= pp / 2 ? 1 : 0), half_m_(half_m) {}

  void Forward(int64_t phase) {
    const int64_t d = phase ^ second_half_;
    builder_.Add(TaskKind::kForward, d * half_m_ + forward_next_[phase]++, d);
  }
  void Backward(int64_t phase, bool split) {
    const int64_t d = phase ^ second_half_;
    const int64_t mb = d * half_m_ + backward_next_[phase]++;
    builder_.Add(split ? TaskKind::kBackwardInput : TaskKind::kBackward, mb, d);
    if (split) weights_.push_back(Task{static_cast<int32_t>(mb), static_cast<int16_t>(d)});
  }
  void Weight() {
    const Task t = weights_.front();
    weights_.pop_front();
    builder_.Add(TaskKind::kWeight, t.micro_batch, t.chunk);
  }

 private:
  TaskListBuilder& builder_;
  int64_t second_half_;
  int64_t half_m_;
  int64_t forward_next_[2] = {0, 0};
  int64_t backward_next_[2] = {0, 0};
  std::deque<Task> weights_;
};

void AddRank(TaskListBuilder& builder, int64_t rank, int64_t pp, int64_t m) {
  const int64_t half_ranks = pp / 2;
  const int64_t h = rank < pp - 1 - rank ? rank : pp - 1 - rank;
  DualPipeRank r(builder, rank, pp, m / 2);
  for (int64_t i = 0; i < (half_ranks - h - 1) * 2; ++i) r.Forward(0);  // 1: F0
  for (int64_t i = 0; i < h + 1; ++i) {                                 // 2: F0 F1
    r.Forward(0);
    r.Forward(1);
  }
  for (int64_t i = 0; i < half_ranks - h - 1; ++i) {  // 3: B1 W1 F1 (zero bubble)
    r.Backward(1, true);
    r.Weight();
    r.Forward(1);
  }
  for (int64_t i = 0; i < m / 2 - pp + h + 1; ++i) {  // 4: F0 B1 F1 B0 (main)
    r.Forward(0);
    r.Backward(1, false);
    r.Forward(1);
    r.Backward(0, false);
  }
  for (int64_t i = 0; i < half_ranks - h - 1; ++i) {  // 5: B1 F1 B0
    r.Backward(1, false);
    r.Forward(1);
    r.Backward(0, false);
  }
  bool split = false;  // 6: B1 B0, the second half of them split
  for (int64_t i = 0; i < h + 1; ++i) {
    if (i == (h + 1) / 2 && h % 2 == 1) split = true;
    r.Backward(1, split);
    if (i == (h + 1) / 2 && h % 2 == 0) split = true;
    r.Backward(0, split);
  }
  for (int64_t i = 0; i < half_ranks - h - 1; ++i) {  // 7: W B0 (zero bubble)
    r.Weight();
    r.Backward(0, true);
  }
  for (int64_t i = 0; i < h + 1; ++i) r.Weight();  // 8: W
}

}  // namespace

TaskLists DualPipeTasks(const ScheduleShape& shape) {
  TaskListBuilder builder(shape.pp * 3 * shape.micro_batches);
  for (int64_t rank = 0; rank < shape.pp; ++rank) {
    AddRank(builder, rank, shape.pp, shape.micro_batches);
    builder.EndStage();
  }
  return builder.Take();
}

}  // namespace paraplan
