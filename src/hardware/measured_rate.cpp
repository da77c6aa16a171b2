#include "hardware/measured_rate.h"

namespace paraplan {

bool IsFrameworkKernelRate(const std::string& field) {
  return field == kTorchGroupedMmField;
}

const std::vector<std::string>& MeasuredRateFields() {
  static const std::vector<std::string> kFields = {"gemm_max",         "fp8_gemm_max",
                                                   "attention_fwd",    "attention_bwd",
                                                   "memory_bandwidth", kTorchGroupedMmField};
  return kFields;
}

}  // namespace paraplan
