// A GPU part's kernel rates measured outside any training framework, as its hardware file states
// them (`gpu.measured`, docs/formats.md): what a GPU nobody fitted takes as its own kernel
// ceilings (hardware/measured_efficiency.h, hardware/efficiency_transfer.h), and what the fit of a
// fitted part starts from and is bounded by (calib/efficiency_fit.h).
//
// A rate is a fraction of the part's own datasheet rate (rate / peak). Our H200 harness is the
// only place every Hopper ceiling was measured together, so a rate that comes with the same
// benchmark's Hopper rate (`hopper_rate` of `hopper_peak`) carries that harness's ceiling by the
// ratio of the two fractions: ceiling = harness value x (rate / peak) / (hopper_rate /
// hopper_peak), one benchmark on both generations, so what it counts differently from our harness
// (shape search, FLOP convention) cancels. A rate without a Hopper counterpart is its own ceiling
// (rate / peak).
#pragma once

#include <string>
#include <vector>

namespace paraplan {

struct MeasuredRate {
  // The efficiency field it measures: gemm_max, fp8_gemm_max (TFLOP/s of the bf16 / fp8 dense
  // peak), attention_fwd, attention_bwd (TFLOP/s of the bf16 peak), memory_bandwidth (GB/s of
  // memory_bandwidth_GBps).
  std::string field;
  double rate = 0;
  // The same benchmark, same settings, on a Hopper part, and that part's datasheet rate for the
  // field (989 bf16 / 1,979 fp8 TFLOP/s on H100/H200 SXM); 0 = none.
  double hopper_rate = 0;
  double hopper_peak = 0;
  std::string source;    // where it was published (URL or repo@commit + file + table)
  std::string date;      // when it was measured (as the source states it)
  std::string software;  // the library / framework versions it ran (as the source states them)
};

// One framework kernel's measured rate that is no efficiency field of the part: PyTorch's
// grouped GEMM (TFLOP/s of the bf16 peak, forward + backward), a ceiling on routed experts run
// through it (cost/torch_grouped_mm.h). The fit and the transfer ignore it.
inline constexpr const char* kTorchGroupedMmField = "torch_grouped_mm";

// True for a field that rates a framework's kernel (kTorchGroupedMmField), not the part's own.
bool IsFrameworkKernelRate(const std::string& field);

// The fields a measured rate may name: Efficiency's, in its order, then the framework kernels'.
const std::vector<std::string>& MeasuredRateFields();

}  // namespace paraplan
