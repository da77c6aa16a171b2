// The fitted parameters of hardware/efficiency.yaml: each family's prior (the sourced starting
// points), the parameters a fit moves with their measured ranges, and reading and writing one by
// its name (efficiency_fit.h).
#include <string>
#include <vector>

#include "calib/efficiency_fit.h"
#include "core/error.h"
#include "hardware/gpu_family.h"
#include "hardware/measured_efficiency.h"
#include "hardware/scaleout_measurements.h"

namespace paraplan {

namespace {

constexpr const char* kLinkPrefix = "link.";

}  // namespace

Efficiency PriorEfficiency(const std::string& family, const std::vector<std::string>& tiers) {
  GpuSpec gpu;
  gpu.name = family;
  return PriorEfficiency(gpu, tiers);
}

Efficiency PriorEfficiency(const GpuSpec& gpu, const std::vector<std::string>& tiers) {
  const std::string& family = gpu.name;
  // The measured values of each family (hardware/measured_efficiency.h, each with its source;
  // docs/cost-model.md, "Constants"), kept apart from the fit so that a refit does not start from,
  // and pull toward, its own previous result. A part's hardware file may state its own measured
  // rates (gpu.measured), which replace its family's; where it states none, Blackwell takes
  // Hopper's fractions, each of the part's own datasheet peak, as a GPU nobody fitted takes them;
  // the fit then moves the fitted values inside the same ranges.
  Efficiency e;
  const MeasuredEfficiency measured = MeasuredKernelEfficiency(gpu);
  for (const auto& [field, value] : measured.fields) {
    // A framework kernel's rate is no efficiency field (hardware/measured_rate.h).
    if (field.rfind(kLinkPrefix, 0) != 0 && !IsFrameworkKernelRate(field)) {
      SetEfficiencyValue(e, field, value.value);
    }
  }
  // Derived, not measured: the min-dimension curve's half-dimension scaled from Hopper's by the
  // SM count (A100 108 / 132, B200 148 / 132: wave quantisation scales with the SMs). A100 has no
  // fp8: its fp8_gemm_max is a placeholder the fit ties to gemm_max at this ratio.
  if (GpuFamily(family) == kAmpere) {
    e.gemm_half_dim = 484;
    e.fp8_gemm_max = 0.55;
  } else if (GpuFamily(family) == kBlackwell) {
    e.gemm_half_dim = 664;
  }
  for (const auto& tier : tiers) {
    const MeasuredValue* link = measured.Find(kLinkPrefix + tier);
    e.link[tier] = link ? link->value : e.LinkFraction(tier);
  }
  return e;
}

std::vector<EfficiencyParameter> EfficiencyParameters(const std::vector<std::string>& tier_names) {
  std::vector<EfficiencyParameter> params = {
      {"gemm_max", 0.30, 0.98, 0.15},
      {"gemm_half_dim", 0.0, 1024.0, 96.0},
      {"fp8_gemm_max", 0.20, 0.95, 0.15},
      {"attention_fwd", 0.20, 0.90, 0.15},
      {"attention_bwd", 0.15, 0.85, 0.15},
      {"memory_bandwidth", 0.40, 0.95, 0.10},
      {"kernel_launch_us", 0.0, 20.0, 2.0},
      {"step_overhead_s", 0.0, 2.0, 0.1},
      {"fa2_attention_fwd", 0.0, 0.90, 0.15},
      {"fa2_attention_bwd", 0.0, 0.85, 0.15},
      {"attention_half_seq", 0.0, 8192.0, 500.0},
  };
  for (const auto& tier : tier_names) params.push_back({kLinkPrefix + tier, 0.20, 0.98, 0.15});
  return params;
}

std::vector<EfficiencyParameter> FittedParameters(const std::string& family,
                                                  const std::vector<std::string>& tier_names) {
  GpuSpec gpu;
  gpu.name = family;
  return FittedParameters(gpu, tier_names);
}

std::vector<EfficiencyParameter> FittedParameters(const GpuSpec& gpu,
                                                  const std::vector<std::string>& tier_names) {
  const std::string& family = gpu.name;
  // Four per family, each inside the range measured for it (docs/cost-model.md): the large-GEMM
  // efficiency within what cuBLASLt reaches on the part, FlashAttention's backward within its
  // measured range, the per-kernel launch cost within what CUDA launches take, and the scale-out
  // bus-bandwidth fraction within what published nccl-tests rings reach across nodes; on Hopper and
  // Blackwell a fifth, the fp8 GEMM top within the harness's fp8 GEMMs with every dimension >=
  // 4096 (0.51-0.72 of the fp8 peak on Hopper). The rest stay at their measured values
  // (PriorEfficiency). The GEMM ranges are each GPU's measured ones
  // (hardware/measured_efficiency.h, GemmFractionRange: a Blackwell part's are Hopper's scaled by
  // its measured ceiling).
  const bool a100 = GpuFamily(family) == kAmpere;
  const MeasuredRange gemm = GemmFractionRange(gpu, "gemm_max");
  const MeasuredRange fp8 = GemmFractionRange(gpu, "fp8_gemm_max");
  std::vector<EfficiencyParameter> params = {
      EfficiencyParameter{"gemm_max", gemm.lo, gemm.hi, 0.05},
      a100 ? EfficiencyParameter{"attention_bwd", 0.40, 0.63, 0.05}
           : EfficiencyParameter{"attention_bwd", 0.45, 0.60, 0.05},
      {"kernel_launch_us", 1.0, 10.0, 2.0},
  };
  if (!a100) params.push_back({"fp8_gemm_max", fp8.lo, fp8.hi, 0.05});
  // The scale-out fraction within what published nccl-tests rings reach across nodes, as a
  // fraction of the NICs' line rate (hardware/scaleout_measurements.h: 0.756-0.96).
  const MeasuredRange scaleout = ScaleoutFractionRange();
  for (const auto& tier : tier_names) {
    if (tier == "scaleout") {
      params.push_back({kLinkPrefix + tier, scaleout.lo, scaleout.hi, 0.10});
    }
  }
  return params;
}

double GetEfficiencyValue(const Efficiency& e, const std::string& name) {
  if (name == "gemm_max") return e.gemm_max;
  if (name == "gemm_half_dim") return e.gemm_half_dim;
  if (name == "fp8_gemm_max") return e.fp8_gemm_max;
  if (name == "attention_fwd") return e.attention_fwd;
  if (name == "attention_bwd") return e.attention_bwd;
  if (name == "memory_bandwidth") return e.memory_bandwidth;
  if (name == "kernel_launch_us") return e.kernel_launch_us;
  if (name == "step_overhead_s") return e.step_overhead_s;
  if (name == "fa2_attention_fwd") return e.fa2_attention_fwd;
  if (name == "attention_half_seq") return e.attention_half_seq;
  if (name == "fa2_attention_bwd") return e.fa2_attention_bwd;
  if (name.rfind(kLinkPrefix, 0) == 0) return e.LinkFraction(name.substr(5));
  throw InputError("unknown efficiency parameter '" + name + "'");
}

void SetEfficiencyValue(Efficiency& e, const std::string& name, double value) {
  if (name == "gemm_max") {
    e.gemm_max = value;
  } else if (name == "gemm_half_dim") {
    e.gemm_half_dim = value;
  } else if (name == "fp8_gemm_max") {
    e.fp8_gemm_max = value;
  } else if (name == "attention_fwd") {
    e.attention_fwd = value;
  } else if (name == "attention_bwd") {
    e.attention_bwd = value;
  } else if (name == "memory_bandwidth") {
    e.memory_bandwidth = value;
  } else if (name == "kernel_launch_us") {
    e.kernel_launch_us = value;
  } else if (name == "step_overhead_s") {
    e.step_overhead_s = value;
  } else if (name == "attention_half_seq") {
    e.attention_half_seq = value;
  } else if (name == "fa2_attention_fwd") {
    e.fa2_attention_fwd = value;
  } else if (name == "fa2_attention_bwd") {
    e.fa2_attention_bwd = value;
  } else if (name.rfind(kLinkPrefix, 0) == 0) {
    e.link[name.substr(5)] = value;
  } else {
    throw InputError("unknown efficiency parameter '" + name + "'");
  }
}

}  // namespace paraplan
