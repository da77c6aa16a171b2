#include "sim/pipeline_timeline.h"

#include <algorithm>
#include <string>

#include "plan/parallel_plan.h"

namespace paraplan {
namespace {

void AddSends(const PipelineLayout& layout, const TaskLists& lists, const TaskTimes& times,
              int64_t s, Nanos p2p, const std::vector<Nanos>& hops,
              std::vector<TimelineEvent>& out) {
  if (p2p == 0 && hops.empty()) return;
  for (int64_t k = lists.stage_begin[s]; k < lists.stage_begin[s + 1]; ++k) {
    const Task& t = lists.tasks[k];
    const bool forward = t.kind == TaskKind::kForward;
    if (!forward && t.kind != TaskKind::kBackward && t.kind != TaskKind::kBackwardInput) continue;
    const Place to = forward ? layout.Next(s, t.chunk) : layout.Previous(s, t.chunk);
    if (!to.Valid() || to.stage == s) continue;
    const Nanos hop = HopNanos(hops, p2p, s, to.stage);
    if (hop == 0) continue;
    const int64_t place = layout.PlaceIndex(t.micro_batch, to.stage, to.chunk);
    const Nanos arrival = forward ? times.forward_ready[place] : times.backward_ready[place];
    out.push_back(TimelineEvent{s, ToString(ParallelDim::kPp), "send " + TaskName(t), t.micro_batch,
                                t.chunk, arrival - hop, arrival, -1});
  }
}

void AddTail(const StageTail& tail, int64_t s, std::vector<TimelineEvent>& out) {
  if (tail.param_gather_end > 0) {
    out.push_back(TimelineEvent{s, ToString(ParallelDim::kDp), "param gather", -1, 0, 0,
                                tail.param_gather_end, -1});
  }
  for (size_t b = 0; b < tail.buckets.size(); ++b) {
    const DpBucket& bucket = tail.buckets[b];
    out.push_back(TimelineEvent{s, ToString(ParallelDim::kDp), "dp bucket " + std::to_string(b), -1,
                                bucket.chunk, bucket.start, bucket.end, -1});
  }
  if (tail.sm_loss > 0) {
    // The compute the buckets' NCCL kernels took beside the last backward (cost/overlap_sm.h),
    // drawn where it lengthens the stage: after its last compute task.
    out.push_back(TimelineEvent{s, "compute", "dp sm loss", -1, 0, tail.compute_end,
                                tail.compute_end + tail.sm_loss, -1});
  }
  if (tail.optimizer_end > tail.optimizer_start) {
    out.push_back(TimelineEvent{s, "compute", "optimizer", -1, 0, tail.optimizer_start,
                                tail.optimizer_end, -1});
  }
}

// The communication a compute task carries, one event per stream: from the task's start for as
// long as the stream runs during it (its hidden part under the compute, its exposed part inside
// the task's duration), at most the task itself. Forward tasks carry the forward's collectives,
// backward tasks (a split backward's input half) the backward's, recompute included.
void AddComm(const PipelineLayout& layout, const std::array<std::string, kMaxCommStreams>& streams,
             int64_t s, const Task& t, Nanos start, Nanos end, std::vector<TimelineEvent>& out) {
  const bool forward = t.kind == TaskKind::kForward;
  if (!forward && t.kind != TaskKind::kBackward && t.kind != TaskKind::kBackwardInput) return;
  const ChunkCost& c = layout.Cost(s, t.chunk);
  for (int g = 0; g < kMaxCommStreams; ++g) {
    const Nanos busy = forward ? c.comm_forward[g] : c.comm_backward[g];
    if (streams[g].empty() || busy <= 0) continue;
    const Nanos loss = forward ? c.sm_loss_forward[g] : c.sm_loss_backward[g];
    out.push_back(TimelineEvent{s, streams[g],
                                streams[g].substr(0, streams[g].find(' ')) + " " + TaskName(t),
                                t.micro_batch, t.chunk, start, std::min(end, start + busy), loss});
  }
}

}  // namespace

std::vector<TimelineEvent> BuildTimeline(const PipelineLayout& layout, const TaskLists& lists,
                                         const TaskTimes& times,
                                         const std::vector<StageTail>& tails, Nanos p2p,
                                         const std::vector<Nanos>& hops,
                                         const std::array<std::string, kMaxCommStreams>& streams) {
  std::vector<TimelineEvent> out;
  out.reserve(lists.tasks.size() * (p2p > 0 ? 2 : 1) + tails.size() * 4);
  for (int64_t s = 0; s < layout.Stages(); ++s) {
    for (int64_t k = lists.stage_begin[s]; k < lists.stage_begin[s + 1]; ++k) {
      const Task& t = lists.tasks[k];
      const Nanos end = TaskEnd(layout, lists, times, s, k);
      out.push_back(TimelineEvent{s, "compute", TaskName(t), t.micro_batch, t.chunk, times.start[k],
                                  end, -1});
      AddComm(layout, streams, s, t, times.start[k], end, out);
    }
    AddSends(layout, lists, times, s, p2p, hops, out);
    AddTail(tails[s], s, out);
  }
  return out;
}

}  // namespace paraplan
