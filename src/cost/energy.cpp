#include "cost/energy.h"

#include <algorithm>
#include <cmath>

namespace paraplan {

double ComputeUtilisation(const StepResult& r) {
  if (r.step_time_s <= 0) return 0;
  return std::clamp(r.time.compute_s / r.step_time_s, 0.0, 1.0);
}

EnergyEstimate ComputeEnergy(const StepResult& r, int64_t gpus, const ClusterPower& power,
                             double wall_s) {
  EnergyEstimate e;
  if (power.gpu_tdp_W <= 0 || gpus <= 0) return e;
  e.utilisation = ComputeUtilisation(r);
  e.gpu_W = power.gpu_idle_W + (power.gpu_tdp_W - power.gpu_idle_W) * e.utilisation;
  const double n = static_cast<double>(gpus);
  const double nodes =
      std::ceil(n / static_cast<double>(std::max<int64_t>(1, power.gpus_per_node)));
  e.facility_W = (n * e.gpu_W + nodes * power.node_other_W) * power.pue;
  e.MWh = e.facility_W * wall_s / 3600.0 / 1e6;
  return e;
}

}  // namespace paraplan
