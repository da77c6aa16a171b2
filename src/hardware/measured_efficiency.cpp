#include "hardware/measured_efficiency.h"

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

// No Blackwell kernel measurement adopted: Hopper's values, each a fraction of the part's own
// datasheet peak, carried per SM and clock.
MeasuredEfficiency Blackwell() {
  MeasuredEfficiency m = Hopper();
  m.own = false;
  for (auto& [field, value] : m.fields) {
    value.source = "none on Blackwell: Hopper's, per SM and clock (" + value.source + ")";
  }
  return m;
}

}  // namespace

MeasuredEfficiency MeasuredKernelEfficiency(const std::string& gpu_name) {
  const std::string family = GpuFamily(gpu_name);
  if (family == kHopper) return Hopper();
  if (family == kAmpere) return Ampere();
  if (family == kBlackwell) return Blackwell();
  return {};
}

}  // namespace paraplan
