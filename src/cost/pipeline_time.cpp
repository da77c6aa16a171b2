#include "cost/pipeline_time.h"

#include <algorithm>

namespace paraplan {

PipelineTime PipelineMakespan(Schedule schedule, int64_t pp, int64_t vpp, int64_t micro_batches,
                              const StageTimes* stages) {
  PipelineTime out;
  double sum_total = 0, sum_f = 0, sum_b = 0, sum_w = 0;
  for (int64_t s = 0; s < pp; ++s) {
    if (stages[s].Total() > stages[out.slowest_stage].Total()) out.slowest_stage = s;
    sum_total += stages[s].Total();
    sum_f += stages[s].f;
    sum_b += stages[s].b;
    sum_w += stages[s].w;
  }
  StageTimes slow = stages[out.slowest_stage];
  if (schedule == Schedule::kDualPipe && pp % 2 == 0) {
    // Each rank holds stage s and its mirror pp-1-s and runs half the micro-batches through each
    // (DeepSeek-V3 report, Sec. 3.2.1): a rank's work is the mean of its pair, so a heavy last
    // stage shares its rank with a light first one (as the simulator runs it).
    int64_t pair = 0;
    for (int64_t s = 1; s < pp / 2; ++s) {
      if (stages[s].Total() + stages[pp - 1 - s].Total() >
          stages[pair].Total() + stages[pp - 1 - pair].Total())
        pair = s;
    }
    const StageTimes& a = stages[pair];
    const StageTimes& b = stages[pp - 1 - pair];
    slow = {(a.f + b.f) / 2, (a.b + b.b) / 2, (a.w + b.w) / 2};
    out.slowest_stage = a.Total() >= b.Total() ? pair : pp - 1 - pair;
  }
  const double m = static_cast<double>(std::max<int64_t>(micro_batches, 1));
  out.busy_s = m * slow.Total();
  // The other stages' fill and drain (equal to (pp-1) x one stage when stages are uniform).
  const double others = sum_total - slow.Total();
  double bubble = others;
  switch (schedule) {
    case Schedule::kGpipe:
    case Schedule::k1F1B:
      break;
    case Schedule::kInterleaved:
      bubble = others / static_cast<double>(std::max<int64_t>(vpp, 1));
      break;
    case Schedule::kZeroBubble:
      bubble = std::max(0.0, (sum_f - slow.f) + (sum_b - slow.b) - (sum_w - slow.w));
      break;
    case Schedule::kDualPipe: {
      const double half = std::max(0.0, static_cast<double>(pp) / 2.0 - 1.0);
      bubble = half * std::max(0.0, slow.f + 2.0 * slow.b - 2.0 * slow.w);
      break;
    }
  }
  out.bubble_s = bubble;
  out.makespan_s = out.busy_s + bubble;
  return out;
}

}  // namespace paraplan
