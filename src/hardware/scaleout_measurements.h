// Published nccl-tests bus bandwidths of rings across nodes, as the fraction of the NICs' line
// rate the model's ring would need to reproduce them: what the scale-out link fraction
// (`efficiency.link.scaleout`, a fraction of a tier's per-GPU `bandwidth_GBps`) may be fitted
// within (calib/efficiency_parameters.cpp; docs/cost-model.md, "Constants"). Every row has 8 GPUs
// and 8 NICs per node, one NIC per GPU, so the model's ring runs at 8 x B_inter across nodes
// (B = min(B_intra, ppn x B_inter): NVLink is faster on every part here).
#pragma once

#include <vector>

#include "hardware/collective_cost.h"
#include "hardware/measured_efficiency.h"

namespace paraplan {

struct ScaleoutMeasurement {
  const char* source;  // repository @ commit and file, or issue, with the row it reads
  const char* gpu;     // the part ("H100", "A100", "B200")
  CollectiveOp op = CollectiveOp::kAllReduce;
  int nodes = 0;          // 8 GPUs each
  double bytes = 0;       // nccl-tests' size; 0 = not stated (the fraction is then busbw / line)
  double busbw_GBps = 0;  // nccl-tests' busbw, per GPU
  double nic_GBps = 0;    // one NIC per GPU, its line rate (400 Gb/s = 50 GB/s)
};

// The fraction f for which the model's ring/Simple (NCCL's tuning model with its own hop
// latencies, 3.4 µs NVLink and 14 µs network: NcclFabric's defaults) takes the measured time:
// bus bytes / ((measured time - the ring's latency) x 8 x the NIC rate). With no size stated, the
// latency is not removed (busbw / (8 x NIC rate), a lower bound on f).
double ScaleoutFraction(const ScaleoutMeasurement& m);

// The rows, in docs/cost-model.md's order.
const std::vector<ScaleoutMeasurement>& ScaleoutMeasurements();

// The range they span: the least and the greatest ScaleoutFraction.
MeasuredRange ScaleoutFractionRange();

}  // namespace paraplan
