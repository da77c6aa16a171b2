// The critical path of a simulated pipeline: from the last task to finish, walk back through
// whichever dependency finished last (the input from another stage, or the previous task on the
// same compute stream), down to the first task.
#pragma once

#include <cstdint>
#include <vector>

#include "sim/pipeline_layout.h"
#include "sim/pipeline_run.h"
#include "sim/schedule.h"

namespace paraplan {

struct CriticalPath {
  std::vector<int64_t> tasks;  // flat task indices, first to last
  Nanos pp_comm = 0;           // time spent in transfers (and blocking sends) along the path
};

CriticalPath WalkCriticalPath(const PipelineLayout& layout, const TaskLists& lists,
                              const TaskTimes& times, int64_t last_task);

}  // namespace paraplan
