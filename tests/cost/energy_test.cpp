// Energy (cost/energy.h): the linear utilisation-power model, the nodes' other parts and PUE.
#include "cost/energy.h"

#include <catch2/catch.hpp>

namespace paraplan {
namespace {

TEST_CASE("energy: GPUs at their utilisation, nodes' other parts, PUE", "[cost][energy]") {
  StepResult r;
  r.step_time_s = 10;
  r.time.compute_s = 6;
  ClusterPower p;
  p.gpu_tdp_W = 700;
  p.gpu_idle_W = 100;
  p.node_other_W = 1000;
  p.gpus_per_node = 8;
  p.pue = 1.5;
  const EnergyEstimate e = ComputeEnergy(r, 16, p, 3600);
  CHECK(e.utilisation == Approx(0.6));
  CHECK(e.gpu_W == Approx(100 + 600 * 0.6));
  CHECK(e.facility_W == Approx((16 * 460.0 + 2 * 1000) * 1.5));
  CHECK(e.MWh == Approx(e.facility_W / 1e6));
  r.time.compute_s = 20;  // clamped: a GPU cannot be busier than the whole step
  CHECK(ComputeUtilisation(r) == 1.0);
  p.gpu_tdp_W = 0;  // power unknown: no figures
  CHECK(ComputeEnergy(r, 16, p, 3600).MWh == 0);
}

}  // namespace
}  // namespace paraplan
