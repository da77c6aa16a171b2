// SimulatePipeline: generate the schedule, run it (pipeline_run.cpp), add
// each stage's DP stream and optimizer (dp_tail.cpp), then measure: makespan, the busiest
// stage's compute and bubble, exposed DP, the critical path and the timeline.
#include "sim/pipeline_simulator.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "cost/overlap_sm.h"
#include "sim/critical_path.h"
#include "sim/dp_tail.h"
#include "sim/pipeline_layout.h"
#include "sim/pipeline_run.h"
#include "sim/pipeline_timeline.h"
#include "sim/schedule.h"

namespace paraplan {
namespace {

struct StageSummary {
  Nanos compute = 0;
  Nanos first_start = 0;
  Nanos last_end = 0;
  Nanos last_end_task_time = -1;
  int64_t last_task = -1;           // the first task (in list order) ending at last_end
  std::vector<GradWindow> windows;  // last gradient-producing task of each chunk
};

StageSummary Summarize(const PipelineLayout& layout, const TaskLists& lists, const TaskTimes& times,
                       int64_t s) {
  StageSummary sum;
  const int64_t begin = lists.stage_begin[s];
  const int64_t stop = lists.stage_begin[s + 1];
  if (begin == stop) return sum;
  sum.first_start = times.start[begin];
  std::vector<bool> seen(static_cast<size_t>(layout.Chunks()), false);
  for (int64_t k = stop - 1; k >= begin; --k) {
    const Task& t = lists.tasks[k];
    const Nanos end = TaskEnd(layout, lists, times, s, k);
    sum.compute += end - times.start[k];
    sum.last_end = std::max(sum.last_end, end);
    if (end > sum.last_end_task_time) {
      sum.last_end_task_time = end;
      sum.last_task = k;
    }
    const bool grads = t.kind == TaskKind::kBackward || t.kind == TaskKind::kWeight;
    if (grads && !seen[t.chunk]) {
      seen[t.chunk] = true;
      sum.windows.push_back(GradWindow{t.chunk, times.start[k], end});
    }
  }
  return sum;
}

std::string PathName(const PipelineLayout& layout, const Task& t, int64_t stage) {
  std::string name = TaskName(t);
  if (layout.Chunks() > 1) name += ".c" + std::to_string(t.chunk);
  return name + "@s" + std::to_string(stage);
}

void AddCriticalPath(const PipelineLayout& layout, const TaskLists& lists, const TaskTimes& times,
                     int64_t last_task, PipelineResult& result) {
  const CriticalPath path = WalkCriticalPath(layout, lists, times, last_task);
  result.pp_comm_exposed = path.pp_comm;
  result.critical_path.reserve(path.tasks.size() + 3);
  for (int64_t k : path.tasks) {
    result.critical_path.push_back(PathName(layout, lists.tasks[k], StageOfTask(lists, k)));
  }
}

// How long stage s's first forward waits for the parameter all-gather at the start of the step:
// all of it without overlap; with overlap_param_gather the first bucket, or the part of the
// gather that outlasts what the first chunk's forward leaves of the NIC, plus the compute that
// forward loses beside the rest (cost/overlap_sm.h ParamGatherWait, which the closed-form
// estimate calls too: cost/dp_comm.cpp StageDpExposure).
Nanos FirstForwardWait(const PipelineInput& input, const PipelineLayout& layout, int64_t s) {
  const StageDpWork& dp = layout.Dp(s);
  if (dp.param_gather == 0) return 0;
  const StageCost& stage = input.stages[static_cast<size_t>(s)];
  const Nanos first_forward = stage.chunks.empty() ? 0 : stage.chunks.front().forward;
  const GatherWait w = ParamGatherWait(static_cast<double>(dp.param_gather),
                                       static_cast<double>(std::max<int64_t>(stage.dp_buckets, 1)),
                                       static_cast<double>(first_forward), dp.nic_rate_fwd,
                                       dp.sm_share, input.overlap_param_gather);
  return static_cast<Nanos>(std::llround(w.wait_s + w.sm_loss_s));
}

}  // namespace

PipelineResult SimulatePipeline(const PipelineInput& input) {
  const PipelineLayout layout(input);
  TaskLists lists =
      GenerateSchedule(input.schedule, ScheduleShape{input.pp, input.vpp, input.micro_batches});
  const std::vector<bool> recompute = layout.HasRecompute();
  if (std::find(recompute.begin(), recompute.end(), true) != recompute.end()) {
    InsertRecompute(lists, layout.Chunks(), recompute);
  }
  const int64_t pp = layout.Stages();
  PipelineRunOptions options{input.p2p, input.overlap_pp_comm, std::vector<Nanos>(pp, 0),
                             input.hops};
  for (int64_t s = 0; s < pp; ++s) {
    options.stage_start[s] = FirstForwardWait(input, layout, s);
  }
  const bool lockstep = input.lockstep && input.schedule == Schedule::kInterleaved &&
                        input.vpp > 1 && input.micro_batches % input.pp == 0;
  const TaskTimes times =
      lockstep
          ? RunPipelineLockstep(layout, lists,
                                PytorchInterleavedSteps(
                                    lists, ScheduleShape{input.pp, input.vpp, input.micro_batches}),
                                options)
          : RunPipeline(layout, lists, options);

  PipelineResult result;
  result.events = times.events;
  std::vector<StageTail> tails;
  Nanos pipeline_start = INT64_MAX;
  Nanos pipeline_end = 0;
  int64_t last_task = -1;
  for (int64_t s = 0; s < pp; ++s) {
    const StageSummary sum = Summarize(layout, lists, times, s);
    pipeline_start = std::min(pipeline_start, sum.first_start);
    if (sum.last_task >= 0 && (sum.last_end > pipeline_end || last_task < 0))
      last_task = sum.last_task;
    pipeline_end = std::max(pipeline_end, sum.last_end);
    if (sum.compute > result.compute) {
      result.compute = sum.compute;
      result.critical_stage = s;
    }
    tails.push_back(
        RunStageTail(layout.Dp(s), sum.windows, sum.last_end, input.overlap_grad_reduce));
    const int64_t chunks = times.peak_chunks_in_flight[s];
    result.peak_chunks_in_flight.push_back(chunks);
    const int64_t per_stage = layout.Dual() ? 1 : layout.Chunks();  // sets per stage's activations
    result.peak_in_flight.push_back((chunks + per_stage - 1) / per_stage);
  }
  result.pipeline = pipeline_end - pipeline_start;
  result.bubble = result.pipeline - result.compute;

  // step = exposed param gather + pipeline + (DP tail + optimizer of the last stage to finish).
  int64_t step_stage = 0;
  for (int64_t s = 0; s < pp; ++s) {
    if (tails[s].optimizer_end > tails[step_stage].optimizer_end) step_stage = s;
  }
  result.step = std::max(tails[step_stage].optimizer_end, pipeline_end);
  const Nanos tail = result.step - pipeline_end;
  result.optimizer = std::min(tail, layout.Dp(step_stage).optimizer);
  result.dp_comm_exposed = tail - result.optimizer + pipeline_start;

  if (input.record_critical_path) {
    if (pipeline_start > 0) result.critical_path.push_back("param gather");
    AddCriticalPath(layout, lists, times, last_task, result);
    if (tails[step_stage].grads_done > pipeline_end) {
      result.critical_path.push_back("dp@s" + std::to_string(step_stage));
    }
    if (result.optimizer > 0)
      result.critical_path.push_back("optimizer@s" + std::to_string(step_stage));
  }
  if (input.record_timeline)
    result.timeline =
        BuildTimeline(layout, lists, times, tails, input.p2p, input.hops, input.comm_streams);
  return result;
}

}  // namespace paraplan
