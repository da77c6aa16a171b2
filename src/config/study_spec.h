// A what-if study as read from a study file (DESIGN.md "Study file"): a base model, cluster,
// GPU count and plan, the swept keys and their values, and what to chart. Plain data; the
// loader is src/config/study_file.h, the runner src/study/study_runner.h.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"
#include "core/name_table.h"
#include "core/override.h"
#include "plan/plan_constraints.h"

namespace paraplan {

struct StudyInlineSpecs;

enum class StudyMode { kPlan, kSimulate };
const NameTable<StudyMode>& StudyModeNames();  // plan simulate
const char* ToString(StudyMode mode);

// What a swept key changes: a model or cluster field (dotted override), the whole model or
// cluster (key `model` / `cluster`, values are names or paths), the GPU count, or a plan knob.
enum class SweepTarget { kModel, kCluster, kModelName, kClusterName, kGpus, kKnob };

struct SweepValue {
  std::string text;  // the YAML value as written ("50", "[4, 8]", "fp8")
  // For a knob: its alternatives as text ({"4", "8"}; pp_layers: {"15/16/16/15"}).
  std::vector<std::string> knob_values;
  SourceLocation where;
};

struct SweepAxis {
  std::string key;  // as written: "cluster.network.scaleout.bandwidth_GBps", "plan.tp" or the bare
                    // knob name
  SweepTarget target = SweepTarget::kKnob;
  std::string knob;  // the knob name for kKnob (tp); empty otherwise
  std::vector<SweepValue> values;
  SourceLocation where;
};

// One axis of the point grid: a single `sweep:` key, or the keys of `zip:`, which move together
// (their value lists have equal length).
struct SweepDimension {
  std::vector<SweepAxis> axes;
  bool zipped = false;
  size_t Size() const { return axes.empty() ? 0 : axes.front().values.size(); }
};

struct StudySpec {
  std::string name;
  std::string file;     // the study file (for messages)
  std::string model;    // a name from models/, or a path ("" when given inline)
  std::string cluster;  // a name from hardware/, or a path ("" when given inline)
  // Inline `model:` / `cluster:` mappings, kept as parsed YAML (defined in study_file.cpp).
  std::shared_ptr<const StudyInlineSpecs> inline_specs;
  std::vector<Override> overrides;  // `overrides:` applied to every point
  int64_t gpus = 0;
  SourceLocation gpus_where;
  PlanConstraints plan;  // the base `plan:` mapping; swept knobs replace their entry per point
  StudyMode mode = StudyMode::kPlan;
  // Grid dimensions in file order: the first is outermost. A `sweep:` key is one dimension;
  // a `zip:` block is one dimension.
  std::vector<SweepDimension> dimensions;
  std::string metric = "step_time_s";
  std::string title;          // default: the study name
  std::string x_label;        // default: from the first swept key
  int64_t simulate_top = 16;  // plan mode: how many best estimates the search re-simulates
  // `tokens:` (15T, 300B): the run each point trains, for the budget metrics (goodput,
  // wall_days, ...; NaN without it); plan mode then ranks by wall-clock time to train, as
  // `plan --tokens` does. 0 = not given.
  double tokens = 0;
};

}  // namespace paraplan
