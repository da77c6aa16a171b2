// What the event-driven pipeline simulator needs (filled by src/cost from a plan), and what it
// returns. Times are integer nanoseconds so that runs repeat exactly.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

using Nanos = int64_t;
inline constexpr int kMaxCommStreams = 4;

// The cost of one micro-batch through one model chunk (a stage holds vpp chunks). Compute times
// already include the TP/CP/EP communication that is not overlapped with compute.
struct ChunkCost {
  Nanos forward = 0;
  Nanos backward_input = 0;   // activation-gradient part of backward (zero-bubble "B")
  Nanos backward_weight = 0;  // weight-gradient part of backward (zero-bubble "W")
  Nanos recompute = 0;        // forward recomputation done at the start of backward
  // How long each communication stream of PipelineInput::comm_streams runs during this chunk's
  // forward and backward, hidden or not (only drawn in the timeline; the times above already
  // hold what of it is exposed).
  std::array<Nanos, kMaxCommStreams> comm_forward{};
  std::array<Nanos, kMaxCommStreams> comm_backward{};
  // Of the forward and backward above, the compute each stream's kernels take by holding SMs
  // beside it (cost/overlap_sm.h): drawn as the stream events' `sm_loss_us`.
  std::array<Nanos, kMaxCommStreams> sm_loss_forward{};
  std::array<Nanos, kMaxCommStreams> sm_loss_backward{};
};

struct StageCost {
  std::vector<ChunkCost> chunks;  // size vpp (or 1)
  Nanos dp_grad_comm = 0;         // gradient reduce(-scatter) for this stage's parameters
  int64_t dp_buckets = 1;         // buckets the gradient communication is split into
  Nanos param_gather = 0;         // ZeRO-3 / distributed-optimizer all-gather (0 when none)
  Nanos optimizer = 0;            // optimizer step for this stage's shard
  // What the DP stream shares (cost/overlap_sm.h): the share of the SMs its NCCL kernels hold,
  // and the fraction of the NIC the first forward's / last backward's TP/CP/EP traffic leaves it.
  double dp_sm_share = 0;
  double dp_nic_rate_fwd = 1;
  double dp_nic_rate_bwd = 1;
};

struct PipelineInput {
  Schedule schedule = Schedule::k1F1B;
  int64_t pp = 1;
  int64_t vpp = 1;
  int64_t micro_batches = 1;
  std::vector<StageCost> stages;  // size pp
  Nanos p2p = 0;                  // send of one micro-batch's activations (or grads) to a neighbour
  // Per hop, when the sends differ by link (size pp): hops[b] between stage b and b + 1,
  // hops[pp - 1] between the last stage and the first (interleaved chunks); empty = every send
  // takes p2p. The cost model fills it from the link each stage boundary crosses.
  std::vector<Nanos> hops;
  bool overlap_pp_comm = true;
  // PyTorch's multi-stage runtime (torchtitan): an interleaved schedule runs as a grid of time
  // steps, each ending in a wait on its batched sends and receives (pipeline_run_lockstep.cpp).
  // Only for Schedule::kInterleaved with vpp > 1 and micro_batches a multiple of pp (what
  // PyTorch's ScheduleInterleaved1F1B accepts); otherwise the event-driven run.
  bool lockstep = false;
  bool overlap_grad_reduce = true;
  bool overlap_param_gather = true;  // false: each stage's first forward waits for param_gather
  bool record_timeline = false;
  // false: no critical path (PipelineResult::critical_path empty, pp_comm_exposed 0); every
  // other field the same. The fit's predictions read only the step (StepModel::SimulateStepTime).
  bool record_critical_path = true;
  // Trace track of each communication stream ("tp nvlink", "dp scaleout"); "" = none.
  std::array<std::string, kMaxCommStreams> comm_streams{};
};

struct TimelineEvent {
  int64_t stage = 0;
  std::string stream;  // "compute", a pipeline or DP group's name (ToString(ParallelDim)), or a
                       // communication stream (tp nvlink)
  std::string name;    // "F3", "B3", "W3", "R3" (recompute), "send F3", "dp bucket 2", "optimizer"
  int64_t micro_batch = -1;
  int64_t chunk = 0;
  Nanos start = 0;
  Nanos end = 0;
  Nanos sm_loss = -1;  // communication events: the compute their kernels' SMs cost (-1: none)
};

struct PipelineResult {
  Nanos step = 0;             // whole step: pipeline + exposed DP + optimizer
  Nanos pipeline = 0;         // first forward start to last backward end
  Nanos bubble = 0;           // idle compute time on the busiest stage inside `pipeline`
  Nanos compute = 0;          // busy compute time on the busiest stage
  Nanos pp_comm_exposed = 0;  // p2p time on the critical path
  Nanos dp_comm_exposed = 0;  // DP communication after the last backward
  Nanos optimizer = 0;
  int64_t critical_stage = 0;
  std::vector<int64_t> peak_in_flight;  // per stage: most micro-batches holding activations
  // per stage: most (micro-batch, chunk) activation sets held; a set is 1/vpp of a stage's
  // activations for interleaved, a whole model stage for the others (DualPipe: either copy).
  // peak_in_flight = ceil(peak_chunks_in_flight / vpp) for interleaved, equal otherwise.
  std::vector<int64_t> peak_chunks_in_flight;
  std::vector<TimelineEvent> timeline;     // only when record_timeline
  std::vector<std::string> critical_path;  // task names along the critical path, in order
  int64_t events = 0;                      // tasks run (for benchmarks; TaskTimes::events)
};

}  // namespace paraplan
