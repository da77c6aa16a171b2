#include "hardware/measured_efficiency.h"

#include <array>

#include "core/format.h"
#include "hardware/gpu_family.h"

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

// Maximum Achievable Matmul FLOPS (S. Bekman, ml-engineering, compute/accelerator/README.md,
// "Maximum Achievable Matmul FLOPS comparison table", github.com/stas00/ml-engineering @ b9e2972):
// torch.matmul over a brute-force shape search, mean of 100 iterations, TFLOP/s of the dense
// peak. The same benchmark on Hopper and Blackwell, so its ratio carries our harness's ceiling
// (measured on an H200) to each Blackwell part: ceiling = harness top x MAMF fraction / H200's.
struct Mamf {
  const char* model;
  double bf16_tflops, bf16_peak, fp8_tflops, fp8_peak;
};
constexpr double kH200MamfBf16 = 794.5 / 989.0;   // "H100 SXM 794.5 ... H200 is the same"
constexpr double kH200MamfFp8 = 1453.4 / 1979.0;  // H200 SXM fp8 (float8_e4m3fn)
constexpr std::array<Mamf, 3> kBlackwellMamf = {{
    {"B200", 1745.0, 2250.0, 3432.5, 4500.0},   // torch 2.7.1+cu128
    {"GB200", 1822.0, 2500.0, 3615.6, 5000.0},  // torch 2.10.0.dev20250916+cu130
    {"B300", 1769.0, 2250.0, 3353.3, 4500.0},   // torch 2.9.1+cu130
}};
constexpr const char* kMamfSource =
    "Bekman's MAMF table (ml-engineering compute/accelerator, torch.matmul best shape)";

const Mamf* FindMamf(const std::string& gpu_name) {
  const std::string model = GpuModel(gpu_name);
  for (const Mamf& m : kBlackwellMamf) {
    if (model == m.model) return &m;
  }
  return nullptr;
}

// The measured ceiling over Hopper's on the same benchmark, bf16 or fp8 (1 where none).
double MamfRatio(const Mamf* m, bool fp8) {
  if (!m) return 1.0;
  return fp8 ? (m->fp8_tflops / m->fp8_peak) / kH200MamfFp8
             : (m->bf16_tflops / m->bf16_peak) / kH200MamfBf16;
}

// Blackwell: Hopper's values, each a fraction of the part's own datasheet peak, carried per SM
// and clock; a part in the MAMF table has its own GEMM ceilings.
MeasuredEfficiency Blackwell(const std::string& gpu_name) {
  MeasuredEfficiency m = Hopper();
  m.family = kBlackwell;
  for (auto& [field, value] : m.fields) {
    value.source = "none on Blackwell: Hopper's, per SM and clock (" + value.source + ")";
    value.carried = true;
  }
  const Mamf* mamf = FindMamf(gpu_name);
  m.own = mamf != nullptr;
  if (mamf) {
    const std::string model = mamf->model;
    const auto ceiling = [&](double top, bool fp8, double tflops, double peak) {
      const double ratio = MamfRatio(mamf, fp8);
      return MeasuredValue{top * ratio,
                           std::string(kMamfSource) + ": " + model + " " + FormatShortest(tflops) +
                               " of " + FormatShortest(peak) + " TFLOP/s " +
                               (fp8 ? "fp8" : "bf16") + " against H200's, x our harness's " +
                               FormatShortest(top),
                           false};
    };
    m.fields["gemm_max"] = ceiling(kTileGemmTopBf16, false, mamf->bf16_tflops, mamf->bf16_peak);
    m.fields["fp8_gemm_max"] = ceiling(kTileGemmTopFp8, true, mamf->fp8_tflops, mamf->fp8_peak);
  }
  return m;
}

}  // namespace

MeasuredEfficiency MeasuredKernelEfficiency(const std::string& gpu_name) {
  const std::string family = GpuFamily(gpu_name);
  if (family == kHopper) return Hopper();
  if (family == kAmpere) return Ampere();
  if (family == kBlackwell) return Blackwell(gpu_name);
  return {};
}

MeasuredRange GemmFractionRange(const std::string& gpu_name, const std::string& field) {
  const bool fp8 = field == "fp8_gemm_max";
  const std::string family = GpuFamily(gpu_name);
  if (family == kAmpere && !fp8) return {0.70, 0.90};  // NVIDIA's cuBLAS large GEMMs on A100
  // Hopper: our harness's large GEMMs (bf16 650-830 TFLOP/s of 989; fp8 with every dimension
  // >= 4096, 0.51-0.72 of the fp8 peak).
  const MeasuredRange hopper = fp8 ? MeasuredRange{0.51, 0.72} : MeasuredRange{0.66, 0.84};
  if (family != kBlackwell) return hopper;
  const double ratio = MamfRatio(FindMamf(gpu_name), fp8);
  return {hopper.lo * ratio, hopper.hi * ratio};
}

}  // namespace paraplan
