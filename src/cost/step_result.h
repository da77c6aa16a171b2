// The answer for one plan: does it fit, how long is a step, where do time and memory go.
// Reporters turn it into the JSON of DESIGN.md ("JSON output"); all fields are SI (bytes,
// seconds) and the reporters convert to GiB.
#pragma once

#include <string>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

struct StageMemory {
  int64_t stage = 0;
  double weights_bytes = 0;
  double grads_bytes = 0;
  double optimizer_bytes = 0;
  double activations_bytes = 0;
  double other_bytes = 0;  // communication buffers, logits/loss workspace, allocator reserve
  // The parts of other_bytes (their sum) where the memory model filled them in; 0 elsewhere.
  double logits_bytes = 0;         // logits and loss workspace (last / MTP stage)
  double buffers_bytes = 0;        // SP/TP gather outputs, DP buckets, ZeRO-3 gathered layers
  double reserve_bytes = 0;        // CUDA context, library workspaces, NCCL buffers
  double fragmentation_bytes = 0;  // caching-allocator fragmentation on the dynamic memory
  double ema_bytes = 0;            // the EMA of the weights on the GPU: part of optimizer_bytes
  double TotalBytes() const {
    return weights_bytes + grads_bytes + optimizer_bytes + activations_bytes + other_bytes;
  }
};

// Seconds per step on the critical path, by cause. Their sum is step_time_s (up to overlap
// already taken into account: only exposed communication is counted).
struct TimeBreakdown {
  double compute_s = 0;
  double bubble_s = 0;
  double tp_comm_s = 0;
  double cp_comm_s = 0;
  double ep_comm_s = 0;
  double pp_comm_s = 0;
  double dp_comm_exposed_s = 0;
  double optimizer_s = 0;
};

// One pipeline stage's layers and per-micro-batch compute (communication folded in as the cost
// model exposes it): what `explain` shows to point at the bottleneck stage.
struct StageLoad {
  int64_t layers = 0;                    // decoder layers over all the stage's chunks
  double forward_s = 0, backward_s = 0;  // per micro-batch; backward includes weight gradients
  bool embedding = false, loss = false, mtp = false;
};

// One collective a plan issues, as the network runs it (explain's "Collectives" table).
struct CollectiveCall {
  std::string group;  // tp | cp | ep | pp | dp | edp
  std::string what;   // which call: "per layer, forward", "gradient bucket", ...
  std::string op;     // all_reduce | all_gather | reduce_scatter | all_to_all | send_recv
  int64_t ranks = 1;
  int64_t per_domain = 1;  // ranks inside one innermost-tier domain (an NVLink node)
  std::string tier;        // the outermost tier the group crosses
  double bytes = 0;        // nccl-tests "size"
  std::string algorithm;   // NCCL's choice (ring, tree, nvls, nvls_tree, pat), or p2p / profile
  std::string protocol;    // LL | LL128 | Simple, or "-"
  double seconds = 0;      // one call
};

// One communication group's time per step on the slowest stage (`explain`'s overlap table):
// how long its collectives run, how much of that hides under compute, how much the step waits
// on it, and the compute lost beside the hidden part to the SMs its kernels hold
// (cost/overlap_sm.h). DP's `exposed_s` is the step's exposed DP time, SM loss included.
struct CommGroupTime {
  std::string group;  // tp, cp, ep, pp, zero3, dp
  std::string tier;   // the outermost tier the group crosses (nvlink, scaleout)
  double busy_s = 0, hidden_s = 0, exposed_s = 0, sm_loss_s = 0;
};

// A term that grows with the number of ranks that synchronise (`explain`'s "Scale terms"): its
// seconds per step (inside the breakdown's compute), the ranks it used, the fraction of the
// compute it adds and where its parameter comes from.
struct ScaleTerm {
  std::string name;
  double seconds = 0;
  int64_t ranks = 0;
  double fraction = 0;
  double sigma = 0;  // the per-GPU spread it read
  std::string source;
};

struct StepResult {
  ParallelPlan plan;
  bool fits = false;
  double step_time_s = 0;
  double tokens_per_s_per_gpu = 0;
  double mfu = 0;
  double hfu = 0;
  double peak_memory_bytes = 0;
  double memory_capacity_bytes = 0;
  std::vector<StageMemory> memory;            // one per pipeline stage
  std::vector<StageLoad> loads;               // one per pipeline stage
  std::vector<int64_t> virtual_stage_layers;  // the layout: layers per virtual stage, model order
  int64_t mtp_virtual_stage = -1;             // virtual stage holding the MTP modules, -1 = none
  int64_t mtp_layers = 0;                     // MTP modules there
  TimeBreakdown time;
  bool simulated = false;                   // true when the event simulator produced step_time_s
  std::vector<std::string> notes;           // short explanations (dominant cost, what would help)
  std::vector<CollectiveCall> collectives;  // filled by StepModel::Estimate / Simulate
  std::vector<CommGroupTime> comm_groups;   // groups with traffic, filled likewise
  double sm_loss_s = 0;  // compute lost per step to overlapped kernels' SMs (all groups)
  std::vector<ScaleTerm> scale_terms;  // filled by StepModel::Estimate / Simulate
};

}  // namespace paraplan
