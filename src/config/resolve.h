// Loading what the user names on the command line or in a runs/study file: a model or cluster
// by name (models/NAME.yaml, hardware/NAME.yaml), by path, or a Hugging Face config.json; with
// dotted-path overrides applied. Errors are InputError with file:line:col and the key path.
#pragma once

#include <string>
#include <vector>

#include "core/error.h"
#include "core/override.h"
#include "hardware/cluster.h"
#include "model/model_spec.h"
#include "plan/plan_constraints.h"

namespace paraplan {

// Parses "a.b.c=value" from --set; throws InputError naming the flag when malformed.
Override ParseOverrideFlag(const std::string& text);

// Directories searched for models/, hardware/ and plans/ by name: the current directory, the
// directory above the executable, then PARAPLAN_DATA_DIR (compile time).
std::vector<std::string> DataSearchDirs();

// A model by name ("llama3-70b"), YAML path, or config.json path; overrides whose path starts
// with "model." are applied (others are ignored).
ModelSpec LoadModel(const std::string& name_or_path, const std::vector<Override>& overrides = {});

// A cluster by name ("dgx-h100") or path; overrides starting with "cluster." are applied. A
// `profile:` entry is loaded relative to the hardware file.
Cluster LoadCluster(const std::string& name_or_path, const std::vector<Override>& overrides = {});

// `--plan "tp=8,pp=2|4,recompute=selective,pp_layers=15/16/16/15"`. Unknown knobs and bad
// values are InputError naming the knob and listing valid values.
PlanConstraints ParsePlanString(const std::string& text);

}  // namespace paraplan
