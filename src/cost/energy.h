// Energy of a run (docs/cost-model.md, "Energy"): each GPU's power at the plan's utilisation on
// the linear utilisation-power model (idle + (TDP - idle) x utilisation; Fan, Weber and Barroso,
// "Power provisioning for a warehouse-sized computer", ISCA 2007), the node's other components,
// times the facility's PUE. Pure formulas.
#pragma once

#include <cstdint>

#include "cost/step_result.h"
#include "hardware/cluster.h"

namespace paraplan {

struct EnergyEstimate {
  double utilisation = 0;  // the share of a step a GPU runs compute kernels, in [0, 1]
  double gpu_W = 0;        // one GPU at that utilisation
  double facility_W = 0;   // the whole job: GPUs + nodes' other components, times PUE
  double MWh = 0;          // over `wall_s`
};

// The share of the step a GPU computes: compute_s / step_time_s (bubbles and exposed
// communication leave it near idle), clamped to [0, 1].
double ComputeUtilisation(const StepResult& result);

// `wall_s` of the job on `gpus` GPUs; all-zero when the cluster's power is unknown (TDP 0).
// Downtime (restarts, checkpoint stalls) is counted at the training draw: an upper bound.
EnergyEstimate ComputeEnergy(const StepResult& result, int64_t gpus, const ClusterPower& power,
                             double wall_s);

}  // namespace paraplan
