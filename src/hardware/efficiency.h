// Achievable fractions of the datasheet numbers: the built-in defaults the cost model uses when
// no calibration profile has a measured number. The generic values are this struct's (the one
// place they are written); hardware/efficiency.yaml starts from them and holds what differs —
// the values per GPU family, fitted to the public runs as a whole (docs/validation.md says how),
// and scale-out 0.85 for a GPU it does not name. The cluster loader applies the file
// (config/efficiency_loader.h); a cluster built in code keeps these values.
#pragma once

#include <map>
#include <string>

namespace paraplan {

struct Efficiency {
  // GEMM: eff(shape) = gemm_max × x / (x + gemm_half_dim), x = min(m, n, k) of the GEMM.
  double gemm_max = 0.80;
  double gemm_half_dim = 96;
  double fp8_gemm_max = 0.55;        // fp8 GEMMs reach a lower fraction of their (2×) peak
  double attention_fwd = 0.55;       // FlashAttention forward, fraction of the bf16 peak
  double attention_bwd = 0.40;       // FlashAttention backward
  double memory_bandwidth = 0.80;    // achieved fraction of HBM bandwidth (copy-like kernels)
  double kernel_overhead_us = 10;    // launch/sync overhead per transformer layer per micro-batch
  double step_overhead_s = 0.0;      // fixed per step (data loading, logging)
  // Achievable bus-bandwidth fraction per tier name ("nvlink", "scaleout", ...); absent = 0.8.
  std::map<std::string, double> link;
  double LinkFraction(const std::string& tier) const {
    auto it = link.find(tier);
    return it == link.end() ? 0.8 : it->second;
  }
};

}  // namespace paraplan
