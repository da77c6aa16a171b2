#include "hardware/measured_rate.h"

namespace paraplan {

bool IsFrameworkKernelRate(const std::string& field) {
  return field == kTorchGroupedMmField;
}

std::string CeilingFieldOf(const std::string& field) {
  return field == kFp8OverBf16Field ? "fp8_gemm_max" : field;
}

const std::vector<std::string>& MeasuredRateFields() {
  static const std::vector<std::string> kFields = {
      "gemm_max",         "fp8_gemm_max",       "attention_fwd",  "attention_bwd",
      "memory_bandwidth", kTorchGroupedMmField, kFp8OverBf16Field};
  return kFields;
}

}  // namespace paraplan
