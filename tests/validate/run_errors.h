// Each run's status and step-time error as one text, for a validation test's failure message
// (INFO): the rows a bound test reads are named with their errors when the bound fails.
#pragma once

#include <string>

#include "core/format.h"
#include "validate/validation_report.h"

namespace paraplan {

inline std::string StepTimeErrors(const ValidationReport& report) {
  std::string text;
  for (const auto& run : report.runs) {
    if (run.status != RunStatus::kOk) text += run.id + ": error: " + run.message + "\n";
    auto it = run.error_pct.find("step_time_s");
    if (it != run.error_pct.end()) {
      text += run.id + ": step time error " + FormatFixed(it->second, 1) + "%\n";
    }
  }
  return text;
}

}  // namespace paraplan
