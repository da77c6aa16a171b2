// Goodput: the share of a long run's wall-clock time that trains, once failures, checkpoints and
// restarts are counted (docs/cost-model.md, "Goodput"). Pure formulas; every input is a number
// the plan, the cluster file or a flag gives.
#pragma once

#include <cstdint>

#include "cost/step_result.h"
#include "hardware/cluster.h"

namespace paraplan {

enum class CheckpointMode { kSync, kAsync };

// The checkpoint one plan writes: the training state (weights and optimizer state, sharded as the
// plan shards them; gradients are not saved), each state shard written once.
struct CheckpointSize {
  double per_gpu_bytes = 0;  // the largest share one GPU writes (the slowest writer)
  double total_bytes = 0;    // the whole checkpoint
};

// Per stage s: its GPUs' unique state = weights / (dp unless ZeRO-3 shards them) + optimizer /
// (dp unless ZeRO >= 1 shards it), as distributed checkpointing (torch.distributed.checkpoint,
// Megatron-Core dist_checkpointing's fully parallel save) splits a replicated tensor's write over
// its replicas. total = sum over stages of that x (gpus / pp).
CheckpointSize PlanCheckpointSize(const StepResult& result, int64_t gpus);

struct GoodputInputs {
  double step_s = 0;  // one training step
  int64_t gpus = 0;
  CheckpointSize checkpoint;
  CheckpointMode mode = CheckpointMode::kSync;
  double host_link_GBps = 0;  // GPU -> host copy of an async save (0: unknown, as sync)
  double interval_s = 0;      // checkpoint every this many seconds of training; 0 = Young/Daly
};

struct Goodput {
  double mtbf_s = 0;              // the job's mean time between interruptions: 1 / (gpus x rate)
  double write_s = 0;             // one checkpoint's write to storage
  double stall_s = 0;             // training time one checkpoint stops (sync: write_s; async: copy)
  double load_s = 0;              // reading the checkpoint back on restart
  double nccl_init_s = 0;         // communicator init at this scale
  double restart_s = 0;           // relaunch + NCCL init + load
  double interval_s = 0;          // training seconds between checkpoints (whole steps)
  bool young_daly = false;        // interval chosen by Young/Daly, not given
  double lost_per_failure_s = 0;  // training redone after an interruption, on average
  double goodput = 0;             // training time / wall-clock time, in [0, 1]
  bool finishes = true;           // false: interruptions arrive faster than the run recovers
};

Goodput ComputeGoodput(const GoodputInputs& in, const ClusterReliability& reliability,
                       const ClusterStorage& storage, int64_t gpus_per_node);

}  // namespace paraplan
