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
  // fp8_over_bf16 only: the part it was measured on, where that is not this one (a sibling with
  // the same tensor cores); empty = this part.
  std::string part;
};

// One framework kernel's measured rate that is no efficiency field of the part: PyTorch's
// grouped GEMM (TFLOP/s of the bf16 peak, forward + backward), a ceiling on routed experts run
// through it (cost/torch_grouped_mm.h). The fit and the transfer ignore it.
inline constexpr const char* kTorchGroupedMmField = "torch_grouped_mm";

// A ratio, not a rate: FP8 over BF16 GEMM throughput on one benchmark at a training step's
// shapes (`rate`), with the same benchmark's ratio on a Hopper part (`hopper_rate`, required). It
// sets the fp8_gemm_max ceiling from the part's own gemm_max one: gemm ceiling x (our harness's
// fp8 top / bf16 top) x rate / hopper_rate (hardware/measured_efficiency.h). A file states it or
// fp8_gemm_max, not both, and only with gemm_max.
inline constexpr const char* kFp8OverBf16Field = "fp8_over_bf16";

// The efficiency field a measured field sets: fp8_gemm_max for kFp8OverBf16Field, else itself.
std::string CeilingFieldOf(const std::string& field);

// True for a field that rates a framework's kernel (kTorchGroupedMmField), not the part's own.
bool IsFrameworkKernelRate(const std::string& field);

// The fields a measured rate may name: Efficiency's, in its order, the framework kernels', then
// the fp8 / bf16 ratio.
const std::vector<std::string>& MeasuredRateFields();

}  // namespace paraplan
