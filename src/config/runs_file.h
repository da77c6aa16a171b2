// Runs files (DESIGN.md "Runs file"): published or measured runs to validate against.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/name_table.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/framework.h"
#include "plan/plan_constraints.h"

namespace paraplan {

struct RunSpec {
  std::string id;
  std::string source;
  // `framework:` (plan/framework.h) and `framework_version:` (one of its profiles' versions, ""
  // = its newest): validate reads the run's knobs as that framework version ran them and fills
  // its unstated knobs from that version's defaults (plan/framework_profile.h).
  Framework framework = Framework::kUnstated;
  std::string framework_version;
  SourceLocation where;  // the run's position in the file
  ModelSpec model;
  Cluster cluster;
  int64_t gpus = 0;
  PlanConstraints plan;                    // knobs left out are searched
  std::map<std::string, double> measured;  // step_time_s, tokens_per_s_per_gpu, mfu, memory_GiB
  std::string error;  // non-empty: this run could not be loaded (e.g. unknown model); others go on
  // `evaluation_only: true`: a run from a source reserved for independent evaluation. It is
  // predicted and compared like any run, but no efficiency fit (--fit-efficiency, --cv) ever
  // sees it (docs/formats.md, "Runs files").
  bool evaluation_only = false;
  // `eval_sequences_per_step:` sequences a forward-only evaluation pass runs inside every timed
  // step (0: none). validate adds that pass (cost/eval_pass.h) to the predicted step.
  int64_t eval_sequences_per_step = 0;
};

// Throws InputError for a malformed file (syntax, unknown keys, wrong types); a run whose model
// or cluster cannot be resolved is returned with `error` set instead.
std::vector<RunSpec> LoadRunsFile(const std::string& path);

}  // namespace paraplan
