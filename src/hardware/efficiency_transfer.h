// The efficiencies of a GPU model nobody fitted (no published run of it, no calibration profile):
// what was fitted on another model, carried over by the physics both GPUs share, never a hand-set
// fraction (docs/cost-model.md, "A GPU nobody fitted").
//
// Each kernel fraction is of the GPU's own datasheet rate, and a datasheet peak is its SMs x
// tensor-core FLOP per SM per clock x the clock it sustains under its power limit (the convention
// every hardware file follows: hardware/grand-teton-h100.yaml derives a power-limited part's peak
// that way). A fraction of that peak is therefore a per-SM, per-clock efficiency: it transfers
// unchanged, while the target's own SM count, clock (inside its peak), FP8/BF16 rates and HBM
// bandwidth come from its hardware file, and the tile-and-wave GEMM model quantises tiles and
// waves over the target's SM count (cost/compute_cost.h). The one shape constant of the
// min-dimension curve, gemm_half_dim (the dimension at which a GEMM fills half the GPU), scales
// with the SM count. Copy-kernel, launch and link fractions carry over as fractions of the
// target's own HBM, host and link datasheet figures. FlashAttention-2's separate fractions are a
// Hopper fact (FA2 does not use Hopper's asynchronous tensor cores); on Ampere FA2 is the fused
// kernel itself, so they are 0 ("the same") there. A calibration profile measured on the target
// overrides every number (hardware/profile_lookup.h).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "hardware/cluster.h"
#include "hardware/efficiency.h"

namespace paraplan {

struct TransferredEfficiency {
  Efficiency efficiency;
  // One (field, where it comes from) per field of Efficiency, in the order of the struct; links as
  // "link.<tier>".
  std::vector<std::pair<std::string, std::string>> sources;
};

// `fitted`: the reference model's fitted efficiencies; `from_model` its name ("H100");
// `from`/`to`: the two GPUs' datasheet specs (sm_count: 0 = unknown, then gemm_half_dim is
// copied); `to_tiers`: the target cluster's tier names (a tier the reference has no fraction for
// gets the reference's default 0.8 through Efficiency::LinkFraction).
TransferredEfficiency TransferEfficiency(const Efficiency& fitted, const std::string& from_model,
                                         const GpuSpec& from, const GpuSpec& to,
                                         const std::vector<std::string>& to_tiers);

}  // namespace paraplan
