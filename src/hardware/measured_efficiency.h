// What has been measured of each GPU family's kernels and links, outside any training framework:
// hardware facts, each with its source (docs/cost-model.md, "Constants"). Two readers: the
// efficiency fit starts from and pulls toward them (calib/efficiency_fit.h, PriorEfficiency), and
// a GPU nobody fitted takes its own measured ceiling times the shortfall the frameworks showed on
// a fitted GPU against that GPU's ceiling (hardware/efficiency_transfer.h).
//
// Measured per family: Hopper (our H200 harness, calibrate/data/h200-2026-11-29; FlashAttention-3's
// FA2 figures; nccl-tests) and Ampere (NVIDIA's Deep Learning Performance Guide, FlashAttention-2,
// nccl-tests). Blackwell's family values are Hopper's, carried per SM and clock (each a fraction
// of the part's own datasheet peak), and marked so (`carried`). A part's own measurements live in
// its hardware file (`gpu.measured`, hardware/measured_rate.h: B200, GB200, B300 GEMMs from one
// benchmark run on H200 too; GB200 and GB300 attention from cuDNN's own benchmark, the same
// release on H200) and replace the family's values field by field (the GpuSpec overloads below).
#pragma once

#include <map>
#include <string>

#include "hardware/cluster.h"

namespace paraplan {

// The tile-and-wave GEMM model's tops (cost/compute_cost.h): the fractions of the bf16 and fp8
// dense peaks a large GEMM's tile reaches on our H200 (cuBLASLt, gemm_fit.csv fitted by
// calibrate/tools/gemm_shape_fit.py). Hopper's measured gemm_max and fp8_gemm_max.
inline constexpr double kTileGemmTopBf16 = 0.725;
inline constexpr double kTileGemmTopFp8 = 0.675;

// A fraction of a datasheet rate lies in (0, 1]; a transferred one is clamped into it.
inline constexpr double kMaxDatasheetFraction = 1.0;

struct MeasuredValue {
  double value = 0;
  std::string source;
  // true: not measured on this GPU's family, Hopper's value carried per SM and clock (a GPU
  // nobody fitted takes its reference's fitted fraction for it, as if nothing were measured).
  bool carried = false;
};

// A range of fractions measured for a field: what the efficiency fit may move it within.
struct MeasuredRange {
  double lo = 0, hi = 0;
};

// One family's measured values by field name as hardware/efficiency.yaml spells them
// ("gemm_max", "attention_fwd", "link.nvlink"). Fields absent were never measured on any family
// (kernel_launch_us, step_overhead_s, attention_half_seq) or are derived, not measured
// (gemm_half_dim off Hopper). `own` false: nothing measured on this family; the values are
// Hopper's, carried per SM and clock. For the FlashAttention-2 fractions, 0 means "the fused
// kernel itself" (Ampere).
struct MeasuredEfficiency {
  std::string family;  // the family the values were measured on ("Hopper", "Ampere")
  bool own = false;
  std::map<std::string, MeasuredValue> fields;

  const MeasuredValue* Find(const std::string& field) const {
    auto it = fields.find(field);
    return it == fields.end() ? nullptr : &it->second;
  }
};

// The measured values of a GPU name or model's family ("A100-SXM4-80GB", "H100", "B200"; by
// hardware/gpu_family.h). A GPU of no known family gets an empty set (`own` false).
MeasuredEfficiency MeasuredKernelEfficiency(const std::string& gpu_name);

// The part's datasheet rate a measured `field` is a fraction of: the bf16 dense peak (gemm_max,
// attention_fwd/bwd), the fp8 dense peak (fp8_gemm_max), memory_bandwidth_GBps; 0 = not stated.
double DatasheetRateFor(const GpuSpec& gpu, const std::string& field);

// The measured values of a GPU as its hardware file describes it: its family's, with every rate
// the file states (gpu.measured) replacing its field (`own` true, not `carried`): rate / peak,
// or, with the same benchmark's Hopper rate, our harness's Hopper value x (rate / peak) /
// (hopper_rate / hopper_peak), clamped to (0, 1].
MeasuredEfficiency MeasuredKernelEfficiency(const GpuSpec& gpu);

// The range of large-GEMM fractions measured for `field` ("gemm_max" or "fp8_gemm_max"): Hopper,
// our harness's large GEMMs (bf16 0.66-0.84, fp8 0.51-0.72 of the dense peak); Ampere bf16
// 0.70-0.90; any other family, Hopper's. The GpuSpec form scales Hopper's range by the part's
// own measured ceiling over Hopper's where its file states one (not on Ampere, whose range is
// its own).
MeasuredRange GemmFractionRange(const std::string& gpu_name, const std::string& field);
MeasuredRange GemmFractionRange(const GpuSpec& gpu, const std::string& field);

}  // namespace paraplan
