// Pipeline simulator benchmark (not a test; see docs/performance.md). Times SimulatePipeline on
// uniform stages for several schedules and sizes, best of N repetitions, and prints tasks,
// events, wall and thread-CPU seconds, and events per CPU second. Since stop 44 the run has no
// event queue and its events are its tasks (the figures before counted wake-ups too).
// Usage: sim_bench [repetitions]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <string>
#include <vector>

#include "plan/parallel_plan.h"
#include "sim/pipeline_simulator.h"
#include "sim/schedule.h"

namespace {

struct BenchCase {
  paraplan::Schedule schedule;
  int64_t pp, vpp, micro_batches;
  paraplan::Nanos p2p;
  bool lockstep = false;  // PyTorch's time-step runtime (pp_lockstep)
};

paraplan::PipelineInput MakeInput(const BenchCase& c) {
  paraplan::PipelineInput in;
  in.schedule = c.schedule;
  in.pp = c.pp;
  in.vpp = c.vpp;
  in.micro_batches = c.micro_batches;
  in.p2p = c.p2p;
  in.lockstep = c.lockstep;
  const int64_t chunks = c.schedule == paraplan::Schedule::kInterleaved ? c.vpp : 1;
  paraplan::StageCost stage;
  stage.chunks.assign(chunks, paraplan::ChunkCost{250000, 250000, 250000, 0});
  stage.dp_grad_comm = 20000000;
  stage.dp_buckets = 8;
  stage.optimizer = 3000000;
  in.stages.assign(c.pp, stage);
  return in;
}

// CPU time of this thread: unaffected by other processes sharing the cores.
double ThreadCpuSeconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

}  // namespace

int main(int argc, char** argv) {
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 5;
  using paraplan::Schedule;
  const std::vector<BenchCase> cases = {
      {Schedule::kInterleaved, 128, 4, 2048, 20000},
      {Schedule::kInterleaved, 128, 4, 2048, 0},
      {Schedule::k1F1B, 128, 1, 2048, 20000},
      {Schedule::kGpipe, 128, 1, 2048, 20000},
      {Schedule::kZeroBubble, 128, 1, 2048, 20000},
      {Schedule::kDualPipe, 128, 1, 2048, 20000},
      {Schedule::kInterleaved, 8, 2, 64, 20000},
      {Schedule::kInterleaved, 128, 4, 2048, 20000, true},
  };
  std::printf("%-16s %5s %4s %6s %9s %9s %10s %14s %10s %10s\n", "schedule", "pp", "vpp", "m",
              "p2p_ns", "tasks", "events", "events_per_s", "wall_s", "cpu_s");
  for (const BenchCase& c : cases) {
    const paraplan::PipelineInput in = MakeInput(c);
    double best_s = 1e30;
    double best_cpu_s = 1e30;
    paraplan::PipelineResult result;
    for (int r = 0; r < repetitions; ++r) {
      const double cpu0 = ThreadCpuSeconds();
      const auto t0 = std::chrono::steady_clock::now();
      result = paraplan::SimulatePipeline(in);
      const auto t1 = std::chrono::steady_clock::now();
      const double s = std::chrono::duration<double>(t1 - t0).count();
      if (s < best_s) best_s = s;
      best_cpu_s = std::min(best_cpu_s, ThreadCpuSeconds() - cpu0);
    }
    const auto tasks = static_cast<int64_t>(
        paraplan::GenerateSchedule(c.schedule, {c.pp, c.vpp, c.micro_batches}).tasks.size());
    const std::string name =
        std::string(paraplan::ToString(c.schedule)) + (c.lockstep ? "+lock" : "");
    std::printf("%-16s %5lld %4lld %6lld %9lld %9lld %10lld %14.3e %10.4f %10.4f\n", name.c_str(),
                static_cast<long long>(c.pp), static_cast<long long>(c.vpp),
                static_cast<long long>(c.micro_batches), static_cast<long long>(c.p2p),
                static_cast<long long>(tasks), static_cast<long long>(result.events),
                static_cast<double>(result.events) / best_cpu_s, best_s, best_cpu_s);
  }
  return 0;
}
