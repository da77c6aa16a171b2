// torchtitan's name for a pipeline schedule (torchtitan/distributed/pipeline_parallel.py,
// `pipeline_parallel_schedule`), shared by both torchtitan exports.
#pragma once

#include "plan/parallel_plan.h"

namespace paraplan {

inline const char* TorchtitanScheduleName(const ParallelPlan& p) {
  switch (p.schedule) {
    case Schedule::kGpipe:
      return "GPipe";
    case Schedule::k1F1B:
      return "1F1B";
    case Schedule::kInterleaved:
      return "Interleaved1F1B";
    case Schedule::kZeroBubble:
      return p.vpp > 1 ? "InterleavedZeroBubble" : "ZBVZeroBubble";
    case Schedule::kDualPipe:
      return "DualPipeV";
  }
  return "1F1B";
}

}  // namespace paraplan
