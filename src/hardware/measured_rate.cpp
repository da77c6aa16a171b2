#include "hardware/measured_rate.h"

namespace paraplan {

const std::vector<std::string>& MeasuredRateFields() {
  static const std::vector<std::string> kFields = {"gemm_max", "fp8_gemm_max", "attention_fwd",
                                                   "attention_bwd", "memory_bandwidth"};
  return kFields;
}

}  // namespace paraplan
