// How much one GPU's sustained speed differs from another's of the same model: a hardware fact
// per GPU family, the published per-GPU spread that the slowest-of-N-ranks term reads
// (cost/straggler.h). A hardware file's `gpu.speed_sigma` or a calibration profile's
// `gpu_speed_sigma` (measured on the cluster's own GPUs) overrides it (config/hardware_loader).
#pragma once

#include <string>

namespace paraplan {

// The largest spread a hardware file, a profile or --set may give (exclusive): at half the
// median's time the normal model means nothing (a GPU at 3 sigma would take 2.5x as long);
// Sinha et al.'s worst application spread is 22 % (sigma ~0.04).
inline constexpr double kMaxSpeedSigma = 0.5;

struct SpeedSpread {
  // Standard deviation of one GPU's compute time over the median GPU's (a fraction: 0.0148 =
  // 1.48 %); 0 = no published measurement: no slowdown.
  double sigma = 0;
  const char* source = "";  // where the number comes from, for explain and hardware show
};

// The published spread for a GPU name: V100 (Sinha et al. SC'22); every other GPU has none
// (sigma 0, and a source that says so and where a measurement would go).
SpeedSpread PublishedSpeedSpread(const std::string& gpu_name);

}  // namespace paraplan
