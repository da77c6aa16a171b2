#include "hardware/measured_efficiency.h"

#include <algorithm>
#include <cmath>

#include "core/format.h"
#include "hardware/gpu_family.h"
#include "hardware/measured_rate.h"

namespace paraplan {

namespace {

constexpr const char* kHarness = "our H200 harness (calibrate/data/h200-2026-11-29)";
constexpr const char* kFa3 =
    "FlashAttention-2 on H100: 335 / 322 TFLOP/s causal fwd / bwd of 989 at 16K tokens, head dim "
    "128 (Shah et al. 2024, FlashAttention-3, Figs. 5-6), over the sequence curve at 16K";

MeasuredEfficiency Hopper() {
  MeasuredEfficiency m;
  m.family = kHopper;
  m.own = true;
  const std::string harness = kHarness;
  m.fields = {
      {"gemm_max", {kTileGemmTopBf16, harness + ": cuBLASLt bf16 GEMMs, tile-and-wave top"}},
      {"fp8_gemm_max", {kTileGemmTopFp8, harness + ": cuBLASLt fp8 GEMMs, tile-and-wave top"}},
      {"gemm_half_dim", {592, harness + ": cuBLASLt bf16 GEMMs, min-dimension curve"}},
      {"attention_fwd", {0.695, harness + ": cuDNN SDPA causal forward, sequence-curve top"}},
      {"attention_bwd", {0.535, harness + ": cuDNN SDPA causal backward, sequence-curve top"}},
      {"attention_half_seq", {850, harness + ": cuDNN SDPA, sequence curve"}},
      {"memory_bandwidth", {0.86, harness + ": 1 GiB device copy, 4.12 of 4.8 TB/s"}},
      {"fa2_attention_fwd", {0.36, kFa3}},
      {"fa2_attention_bwd", {0.34, kFa3}},
      {"link.nvlink",
       {0.80, "nccl-tests all-reduce bus bandwidth, ~360 of 450 GB/s NVLink4 (NVIDIA DGX H100)"}},
      {"link.scaleout", {0.88, "nccl-tests all-reduce bus bandwidth on 400 Gb/s NDR InfiniBand"}},
  };
  return m;
}

MeasuredEfficiency Ampere() {
  MeasuredEfficiency m;
  m.family = kAmpere;
  m.own = true;
  const std::string fa2 = "FlashAttention-2 on A100 (Dao 2023, Fig. 4)";
  m.fields = {
      {"gemm_max", {0.82, "cuBLAS large GEMMs (NVIDIA Deep Learning Performance Guide)"}},
      {"attention_fwd", {0.65, fa2 + ", forward"}},
      {"attention_bwd", {0.55, fa2 + ", backward"}},
      {"memory_bandwidth", {0.85, "STREAM-like device copies on A100"}},
      {"fa2_attention_fwd", {0, "0: FlashAttention-2 is Ampere's fused kernel"}},
      {"fa2_attention_bwd", {0, "0: FlashAttention-2 is Ampere's fused kernel"}},
      {"link.nvlink", {0.77, "nccl-tests all-reduce bus bandwidth, ~230 of 300 GB/s NVLink3"}},
      {"link.scaleout", {0.85, "nccl-tests all-reduce bus bandwidth on 200 Gb/s HDR InfiniBand"}},
  };
  return m;
}

// Blackwell: Hopper's values, each a fraction of the part's own datasheet peak, carried per SM
// and clock. A part's hardware file may state its own measured rates (gpu.measured), which
// replace them (MeasuredKernelEfficiency(const GpuSpec&)).
MeasuredEfficiency Blackwell() {
  MeasuredEfficiency m = Hopper();
  m.family = kBlackwell;
  m.own = false;
  for (auto& [field, value] : m.fields) {
    value.source = "none on Blackwell: Hopper's, per SM and clock (" + value.source + ")";
    value.carried = true;
  }
  return m;
}

std::string Rate(double rate, const std::string& field) {
  return FormatShortest(rate) + (field == "memory_bandwidth" ? " GB/s" : " TFLOP/s");
}

// One stated rate as a ceiling: its fraction of the part's datasheet rate, carried through our
// Hopper harness by the same benchmark's Hopper fraction where the file gives one.
MeasuredValue CeilingOf(const MeasuredRate& m, const GpuSpec& gpu) {
  const double peak = DatasheetRateFor(gpu, m.field);
  const double fraction = peak > 0 ? m.rate / peak : 0;
  std::string why = m.source + " (" + (m.date.empty() ? "" : m.date + ", ") + m.software +
                    "): " + Rate(m.rate, m.field) + " of " + Rate(peak, m.field);
  if (m.hopper_rate <= 0 || m.hopper_peak <= 0) {
    return {std::clamp(fraction, 0.0, kMaxDatasheetFraction), why + ", its own ceiling", false};
  }
  const MeasuredEfficiency hopper = Hopper();  // held: Find points into it
  const MeasuredValue* harness = hopper.Find(m.field);
  const double top = harness ? harness->value : 0;
  const double ratio = fraction / (m.hopper_rate / m.hopper_peak);
  why += " against Hopper's " + Rate(m.hopper_rate, m.field) + " of " +
         Rate(m.hopper_peak, m.field) + " on the same benchmark (x" +
         FormatShortest(std::round(ratio * 1000) / 1000) + "), x our harness's " +
         FormatShortest(top);
  return {std::clamp(top * ratio, 0.0, kMaxDatasheetFraction), why, false};
}

// The fp8 ceiling from the part's own bf16 one and an fp8 / bf16 ratio measured with a Hopper
// counterpart: bf16 ceiling x our harness's fp8 / bf16 tops x (rate / hopper_rate).
MeasuredValue Fp8FromRatio(const MeasuredRate& m, const MeasuredValue& gemm) {
  const double gain = m.rate / m.hopper_rate;
  const double value = gemm.value * (kTileGemmTopFp8 / kTileGemmTopBf16) * gain;
  std::string why =
      "the part's gemm_max ceiling " + FormatShortest(std::round(gemm.value * 1e4) / 1e4) +
      " x our harness's fp8 / bf16 tops (" + FormatShortest(kTileGemmTopFp8) + " / " +
      FormatShortest(kTileGemmTopBf16) + ") x fp8 / bf16 " + FormatShortest(m.rate) +
      (m.part.empty() ? "" : " on " + m.part) + " over Hopper's " + FormatShortest(m.hopper_rate) +
      " on the same benchmark (x" + FormatShortest(std::round(gain * 1e4) / 1e4) +
      "): " + m.source + " (" + (m.date.empty() ? "" : m.date + ", ") + m.software + ")";
  return {std::clamp(value, 0.0, kMaxDatasheetFraction), why, false};
}

}  // namespace

MeasuredEfficiency MeasuredKernelEfficiency(const std::string& gpu_name) {
  const std::string family = GpuFamily(gpu_name);
  if (family == kHopper) return Hopper();
  if (family == kAmpere) return Ampere();
  if (family == kBlackwell) return Blackwell();
  return {};
}

double DatasheetRateFor(const GpuSpec& gpu, const std::string& field) {
  if (field == "fp8_gemm_max") return gpu.peak_tflops.fp8;
  if (field == kFp8OverBf16Field) {
    return gpu.peak_tflops.bf16 > 0 ? gpu.peak_tflops.fp8 / gpu.peak_tflops.bf16 : 0;
  }
  if (field == "memory_bandwidth") return gpu.memory_bandwidth_GBps;
  return gpu.peak_tflops.bf16;
}

MeasuredEfficiency MeasuredKernelEfficiency(const GpuSpec& gpu) {
  MeasuredEfficiency m = MeasuredKernelEfficiency(gpu.name);
  const MeasuredRate* ratio = nullptr;
  for (const MeasuredRate& rate : gpu.measured) {
    if (rate.field == kFp8OverBf16Field) {
      ratio = &rate;
    } else {
      m.fields[rate.field] = CeilingOf(rate, gpu);
    }
    // A framework kernel's rate is no measurement of the part's own kernels.
    if (!IsFrameworkKernelRate(rate.field)) m.own = true;
  }
  const MeasuredValue* gemm = m.Find("gemm_max");
  if (ratio && gemm && !gemm->carried) m.fields["fp8_gemm_max"] = Fp8FromRatio(*ratio, *gemm);
  return m;
}

MeasuredRange GemmFractionRange(const std::string& gpu_name, const std::string& field) {
  const bool fp8 = field == "fp8_gemm_max";
  if (GpuFamily(gpu_name) == kAmpere && !fp8) return {0.70, 0.90};  // NVIDIA's cuBLAS on A100
  // Hopper: our harness's large GEMMs (bf16 650-830 TFLOP/s of 989; fp8 with every dimension
  // >= 4096, 0.51-0.72 of the fp8 peak).
  return fp8 ? MeasuredRange{0.51, 0.72} : MeasuredRange{0.66, 0.84};
}

MeasuredRange GemmFractionRange(const GpuSpec& gpu, const std::string& field) {
  const MeasuredRange family = GemmFractionRange(gpu.name, field);
  const bool measured_here =
      std::any_of(gpu.measured.begin(), gpu.measured.end(),
                  [&](const MeasuredRate& rate) { return CeilingFieldOf(rate.field) == field; });
  if (!measured_here || GpuFamily(gpu.name) == kAmpere) return family;
  // The part's own ceiling over Hopper's: Hopper's range scaled by it.
  const MeasuredEfficiency measured = MeasuredKernelEfficiency(gpu);  // held: Find points into it
  const MeasuredValue* own = measured.Find(field);
  if (!own || own->carried) return family;
  const double ratio = own->value / Hopper().Find(field)->value;
  return {family.lo * ratio, family.hi * ratio};
}

}  // namespace paraplan
