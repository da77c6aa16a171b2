#include "hardware/gpu_variability.h"

namespace paraplan {

namespace {

// Sinha et al., "Not All GPUs Are Created Equal: Characterizing Variability in Large-Scale,
// Accelerator-Rich Systems", SC'22 (arXiv 2208.11035): the same kernels (SGEMM, ResNet-50, BERT,
// LAMMPS, PageRank) on over 90 % of the GPUs of Summit, Vortex, Frontera, Longhorn (V100) and
// Corona (MI50/MI60), 18,800 GPU-hours: 8 % average performance variation between GPUs of the
// same SKU (max 22 %), outliers up to 1.5x slower than the median. We read the 8 % as the spread
// of the per-GPU box plot between its whiskers (the non-outlier GPUs; outliers are what a
// production cluster's health checks drain); for a normal distribution that spread is
// 2 x (0.6745 + 1.5 x 1.349) sigma = 5.396 sigma, so sigma = 0.08 / 5.396 = 0.0148.
constexpr double kSinhaSigma = 0.08 / 5.396;
constexpr const char* kSinhaSource =
    "Sinha et al. SC'22, 8 % per-GPU variation (V100) = 5.396 sigma";
constexpr const char* kUnmeasured =
    "none published for this GPU family (Sinha et al. SC'22 measured sigma 1.48 % on V100; "
    "set gpu.speed_sigma or a profile's gpu_speed_sigma to apply a spread)";

}  // namespace

SpeedSpread PublishedSpeedSpread(const std::string& gpu_name) {
  if (gpu_name.find("V100") != std::string::npos) return {kSinhaSigma, kSinhaSource};
  // Ampere, Hopper and Blackwell: no per-GPU spread measured at scale was found published.
  // Carrying the V100 figure over was tried (docs/cost-model.md, "The slowest of N ranks": it
  // made three of the four cross-validations worse), so these families get none until a
  // measurement says otherwise; a profile measured on the cluster's own GPUs gives one.
  return {0, kUnmeasured};
}

}  // namespace paraplan
