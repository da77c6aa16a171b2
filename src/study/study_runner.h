// Running a study: expand its points, keep this shard's, resolve each point's model, cluster,
// GPU count and plan constraints, then evaluate the points on all threads — the best plan per
// point (mode plan, SearchPlans) or the fixed plan (mode simulate, StepModel::Simulate). A point
// without a plan, or whose plan breaks a rule, becomes a row with its status and reason. The
// rows are the same whatever the thread count.
#pragma once

#include <cstdint>
#include <functional>

#include "config/study_spec.h"
#include "study/study_table.h"

namespace paraplan {

struct StudyRunOptions {
  int threads = 0;  // 0 = all hardware threads
  int64_t shard = 0;
  int64_t shard_count = 1;
  // Called with (points done, points in this shard), from one thread at a time; may be empty.
  std::function<void(int64_t, int64_t)> progress;
};

// The table's metadata (name, keys, metric, ...) without rows.
StudyTable MakeStudyTable(const StudySpec& spec);

// This shard's rows (all rows when shard_count is 1), by index. Throws InputError when a point's
// overrides are invalid (before any point is evaluated).
StudyTable RunStudy(const StudySpec& spec, const StudyRunOptions& options);

}  // namespace paraplan
