// The efficiencies of a GPU model nobody fitted (no published run of it, no calibration profile):
// what was fitted on another model, carried over by what the two GPUs share, never a hand-set
// fraction (docs/cost-model.md, "A GPU nobody fitted").
//
// What transfers between GPUs is the framework-level shortfall: the ratio of what the frameworks
// achieve (the reference's fitted fraction) to what its kernels achieve alone (its measured
// ceiling, hardware/measured_efficiency.h): launch gaps, unfused ops, imperfect overlap. The
// kernel ceiling itself is a measured fact of each GPU (Hopper's tensor cores need wgmma/TMA and a
// deep pipeline to approach peak; A100's cuBLAS reaches a larger fraction). So each kernel, copy
// and link fraction is target_measured x reference_fitted / reference_measured, clamped to
// (0, 1], where the target family has a measurement of its own.
//
// Each GPU's measured values are its family's with the rates its hardware file states
// (`gpu.measured`, MeasuredKernelEfficiency(const GpuSpec&)). Where a field has none (Blackwell's
// memory and link fractions today), the fitted fraction carries over per SM and clock: each
// kernel fraction is of the GPU's own datasheet rate, and a datasheet peak is its SMs x
// tensor-core FLOP per SM per clock x the clock it sustains under its power limit (the convention
// every hardware file follows: hardware/grand-teton-h100.yaml derives a power-limited part's peak
// that way), so a fraction of that peak is a per-SM, per-clock efficiency, while the target's own
// SM count, clock (inside its peak), FP8/BF16 rates and HBM bandwidth come from its hardware
// file, and the tile-and-wave GEMM model quantises tiles and waves over the target's SM count
// (cost/compute_cost.h). The one shape constant of the min-dimension curve, gemm_half_dim (the
// dimension at which a GEMM fills half the GPU), scales with the SM count. The launch gap and the
// per-step overhead are host-side times and carry over unchanged. A FlashAttention-2 fraction of 0
// is "the fused kernel itself" (Ampere). A calibration profile measured on the target overrides
// every number (hardware/profile_lookup.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "hardware/cluster.h"
#include "hardware/efficiency.h"
#include "hardware/measured_efficiency.h"

namespace paraplan {

struct TransferredEfficiency {
  Efficiency efficiency;
  // One (field, where it comes from) per field of Efficiency, in the order of the struct; links as
  // "link.<tier>".
  std::vector<std::pair<std::string, std::string>> sources;
};

// One transferred fraction, and whether it came from the target's own measurement (false: the
// fitted value carried per SM and clock).
struct TransferredValue {
  double value = 0;
  bool measured = false;
};

// The rule for one fraction: `fitted` (the reference's) carried as it is unless the target's
// family has its own measurement (`target_own`) of the field; then target x fitted / reference,
// clamped to (0, 1] (kMaxDatasheetFraction); the target's ceiling alone where the reference has
// no measurement of the field; 0 where the target's is 0 ("the fused kernel itself").
TransferredValue TransferFraction(double fitted, const MeasuredValue* reference_measured,
                                  const MeasuredValue* target_measured, bool target_own);

// `fitted`: the reference model's fitted efficiencies; `from_model` its name ("H100");
// `from`/`to`: the two GPUs' specs (their families and `measured` rates give their ceilings)
// (sm_count: 0 = unknown, then gemm_half_dim is copied); `to_tiers`: the target cluster's tier
// names (a tier the reference has no fraction for gets the reference's default 0.8 through
// Efficiency::LinkFraction).
TransferredEfficiency TransferEfficiency(const Efficiency& fitted, const std::string& from_model,
                                         const GpuSpec& from, const GpuSpec& to,
                                         const std::vector<std::string>& to_tiers);

}  // namespace paraplan
