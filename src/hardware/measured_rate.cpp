#include "hardware/measured_rate.h"

namespace paraplan {

// The efficiency fields measured_rate.h lists, and one framework kernel's rate that is no
// efficiency field: torch_grouped_mm (TFLOP/s of the bf16 peak, PyTorch's grouped GEMM forward +
// backward), a ceiling on routed experts run through it (cost/torch_grouped_mm.h); the fit and
// the transfer ignore it.
const std::vector<std::string>& MeasuredRateFields() {
  static const std::vector<std::string> kFields = {"gemm_max",         "fp8_gemm_max",
                                                   "attention_fwd",    "attention_bwd",
                                                   "memory_bandwidth", "torch_grouped_mm"};
  return kFields;
}

}  // namespace paraplan
