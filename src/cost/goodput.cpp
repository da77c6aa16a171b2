#include "cost/goodput.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace paraplan {

CheckpointSize PlanCheckpointSize(const StepResult& r, int64_t gpus) {
  CheckpointSize size;
  const ParallelPlan& p = r.plan;
  const double replicas = static_cast<double>(std::max<int64_t>(1, p.dp * p.cp));
  const double gpus_per_stage =
      static_cast<double>(gpus) / static_cast<double>(std::max<int64_t>(1, p.pp));
  for (const StageMemory& m : r.memory) {
    const double weights = m.weights_bytes / (p.zero >= 3 ? 1.0 : replicas);
    const double optimizer = m.optimizer_bytes / (p.zero >= 1 ? 1.0 : replicas);
    const double per_gpu = weights + optimizer;
    size.per_gpu_bytes = std::max(size.per_gpu_bytes, per_gpu);
    size.total_bytes += per_gpu * gpus_per_stage;
  }
  return size;
}

Goodput ComputeGoodput(const GoodputInputs& in, const ClusterReliability& rel,
                       const ClusterStorage& storage, int64_t gpus_per_node) {
  Goodput g;
  const double n = static_cast<double>(std::max<int64_t>(1, in.gpus));
  const double per_node = static_cast<double>(std::max<int64_t>(1, gpus_per_node));
  const double node_bytes = in.checkpoint.per_gpu_bytes * std::min(per_node, n);
  // Writing and reading: the slowest node through its own link, or the whole checkpoint through
  // the file system's aggregate bandwidth, whichever takes longer.
  g.write_s = std::max(node_bytes / (storage.write_GBps_per_node * kGB),
                       in.checkpoint.total_bytes / (storage.aggregate_GBps * kGB));
  g.load_s = std::max(node_bytes / (storage.read_GBps_per_node * kGB),
                      in.checkpoint.total_bytes / (storage.aggregate_GBps * kGB));
  // Async (torch.distributed.checkpoint.async_save, Megatron-Core's async save): training stops
  // only while each GPU copies its shard to host memory, then the write runs in the background.
  const bool async = in.mode == CheckpointMode::kAsync && in.host_link_GBps > 0;
  g.stall_s = async ? in.checkpoint.per_gpu_bytes / (in.host_link_GBps * kGB) : g.write_s;
  g.nccl_init_s = rel.nccl_init_s_per_rank2 * n * n;
  g.restart_s = rel.relaunch_s + g.nccl_init_s + g.load_s;
  const double rate = rel.failures_per_gpu_day * n / kSecondsPerDay;  // interruptions per second
  g.mtbf_s = rate > 0 ? 1.0 / rate : INFINITY;
  // Young (1974) / Daly (2006, first order): the interval that minimises checkpoint plus
  // lost-work time is sqrt(2 x checkpoint cost x MTBF).
  double interval = in.interval_s;
  g.young_daly = interval <= 0;
  if (g.young_daly) interval = rate > 0 ? std::sqrt(2.0 * g.stall_s * g.mtbf_s) : INFINITY;
  // One async save in flight at a time (the DCP recipe's advice): the next waits for the write.
  if (async) interval = std::max(interval, g.write_s);
  if (std::isfinite(interval) && in.step_s > 0) {
    interval = std::max(1.0, std::round(interval / in.step_s)) * in.step_s;
  }
  g.interval_s = interval;
  // Work redone after an interruption: on average half an interval (and its stall), plus, for
  // async saves, the write still in flight when the failure hits.
  g.lost_per_failure_s =
      std::isfinite(interval) ? (interval + g.stall_s) / 2.0 + (async ? g.write_s : 0.0) : 0.0;
  // Wall = train x (1 + stall / interval) + rate x wall x (restart + lost), so
  // goodput = train / wall = (1 - rate x (restart + lost)) / (1 + stall / interval).
  const double checkpoint_share = std::isfinite(interval) ? g.stall_s / interval : 0.0;
  const double failure_share = rate * (g.restart_s + g.lost_per_failure_s);
  g.finishes = failure_share < 1.0;
  g.goodput = g.finishes ? (1.0 - failure_share) / (1.0 + checkpoint_share) : 0.0;
  return g;
}

}  // namespace paraplan
