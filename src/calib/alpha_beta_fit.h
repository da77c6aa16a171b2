// The α–β (latency–bandwidth) model of a collective, fitted by least squares:
//   time_us = latency_us + bus_bytes / bandwidth
// (Hockney 1994; bus bytes as in nccl-tests doc/PERFORMANCE.md).
#pragma once

#include <vector>

#include "hardware/profile.h"

namespace paraplan {

struct AlphaBetaPoint {
  double bus_bytes = 0;  // payload × nccl-tests bus factor
  double time_us = 0;
};

struct AlphaBetaResult {
  CollectiveFit fit;                 // latency_us, bandwidth_GBps (bus), r2, points
  std::vector<double> residual_pct;  // (measured − fitted) / fitted × 100, one per point
  double max_abs_residual_pct = 0;
};

// Minimises the sum of squared relative errors Σ((α + x_i/β − t_i)/t_i)², so that small sizes
// (latency-bound) weigh as much as large ones (bandwidth-bound); α is clamped at 0 (then β is
// refitted alone). r2 is the ordinary coefficient of determination on time. Needs at least two
// distinct sizes and a time that grows with size; otherwise throws InputError.
AlphaBetaResult FitAlphaBeta(const std::vector<AlphaBetaPoint>& points);

}  // namespace paraplan
