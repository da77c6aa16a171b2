// Study files (DESIGN.md "Study file", docs/formats.md "Study files"): what-if sweeps over
// dotted overrides, plan knobs and the GPU count. Errors are InputError with file:line:col and
// the key path; unknown keys are rejected.
#pragma once

#include <cstdint>
#include <string>

#include "config/study_spec.h"
#include "config/sweep.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/plan_constraints.h"

namespace paraplan {

StudySpec LoadStudyFile(const std::string& path);
// The same from text; `origin` names it in messages; relative model/cluster paths are resolved
// against `base_dir`.
StudySpec ParseStudyText(const std::string& text, const std::string& origin,
                         const std::string& base_dir = ".");

// Everything one point needs: the model and cluster with the point's overrides applied, its GPU
// count and its plan constraints. Throws InputError (at the swept value) for a bad override.
struct StudyPointInput {
  ModelSpec model;
  Cluster cluster;
  int64_t gpus = 0;
  PlanConstraints plan;
};
StudyPointInput ResolveStudyPoint(const StudySpec& spec, const StudyPoint& point);

}  // namespace paraplan
