// The slowest of N ranks. A synchronous step waits for the slowest rank at every blocking
// collective: a TP group runs at its slowest member's pace, a pipeline at its slowest stage's,
// and the gradient reduction waits for the slowest replica, so the step's compute runs at the
// pace of the slowest of the N GPUs that synchronise. With each GPU's compute time
// T (1 + sigma Z_i), Z_i independent standard normals (the per-GPU spread, hardware/
// gpu_variability.h), the step's compute takes T (1 + sigma E[max_i Z_i]).
#pragma once

#include <cstdint>

namespace paraplan {

// Φ^-1(p), the standard normal quantile, for 0 < p < 1: Acklam's rational approximation (P. J.
// Acklam, "An algorithm for computing the inverse normal cumulative distribution function",
// 2003; relative error below 1.15e-9).
double InverseNormalCdf(double p);

// E[max of n independent standard normals] by Blom's approximation (G. Blom, "Statistical
// Estimates and Transformed Beta-Variables", Wiley 1958): E[Z_(n:n)] ≈ Φ^-1((n - 0.375) /
// (n + 0.25)); 0 for n = 1 (exactly), 1.434 for n = 8 (exact 1.423), 3.234 for n = 1,024.
double ExpectedMaxStandardNormal(int64_t n);

// The fraction the slowest of `ranks` GPUs adds to the step's compute: sigma × E[max of ranks
// standard normals]; 0 when sigma is 0 or ranks is 1.
double SlowestRankFraction(double sigma, int64_t ranks);

}  // namespace paraplan
