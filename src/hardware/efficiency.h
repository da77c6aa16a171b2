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
  // GEMM: eff(shape) = gemm_max × x / (x + gemm_half_dim), x = min(m, n, k) of the GEMM (the
  // min-dimension curve); under the tile-and-wave model (gpu.gemm_model: tile) gemm_max and
  // fp8_gemm_max are its tops instead (cost/compute_cost.h). The generic values are the measured
  // Hopper curve's (cuBLASLt on our H200, docs/cost-model.md).
  double gemm_max = 0.785;
  double gemm_half_dim = 592;
  double fp8_gemm_max = 0.68;  // fp8 GEMMs reach a lower fraction of their (2×) peak
  // FlashAttention: eff(s) = attention_fwd (or _bwd) × s / (s + attention_half_seq), s the
  // query block length (sequence / cp); the fractions are of the bf16 peak at long sequences.
  double attention_fwd = 0.695;
  double attention_bwd = 0.535;
  double attention_half_seq = 850;
  double memory_bandwidth = 0.86;  // achieved fraction of HBM bandwidth (copy-like kernels)
  double kernel_launch_us = 4;     // per kernel: launch and the gap to the next dependent one
  double step_overhead_s = 0.0;    // fixed per step (data loading, logging)
  // PyTorch SDPA's FlashAttention-2 kernel (fusion eager / compile), where it differs from the
  // fused attention above (Hopper: FA2 does not use its asynchronous tensor cores); 0 = the same.
  double fa2_attention_fwd = 0;
  double fa2_attention_bwd = 0;
  // Achievable bus-bandwidth fraction per tier name ("nvlink", "scaleout", ...); absent = 0.8.
  std::map<std::string, double> link;
  bool operator==(const Efficiency&) const = default;
  double LinkFraction(const std::string& tier) const {
    auto it = link.find(tier);
    return it == link.end() ? 0.8 : it->second;
  }
};

}  // namespace paraplan
