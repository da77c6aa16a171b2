// The `--plan` string that re-runs one plan exactly: `simulate --plan "<PlanString>"` resolves to
// the same ParallelPlan (a round trip tested in tests/plan/plan_string_test.cpp and end to end).
// The shape, batch, sequence length (resolved: the model's when the plan leaves it at 0),
// recompute, sequence parallelism, ZeRO, precision, schedule and the overlap switches are always
// written; the rarer knobs (MoE routing, DP gradient dtype and bucket, placement, pp_layers,
// zero3_keep_gathered) only when they differ from ParallelPlan's defaults, which every command
// shares (plan_defaults.h).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "plan/parallel_plan.h"

namespace paraplan {

// The knob=value items of PlanString, in its order, each as a (name, value) pair.
using PlanKnobItems = std::vector<std::pair<std::string, std::string>>;
PlanKnobItems PlanKnobs(const ParallelPlan& plan, int64_t model_seq_len);

// "tp=8,pp=2,dp=4,cp=1,...,overlap_pp_comm=true": PlanKnobs joined. model_seq_len replaces
// seq_len=0.
std::string PlanString(const ParallelPlan& plan, int64_t model_seq_len);

}  // namespace paraplan
