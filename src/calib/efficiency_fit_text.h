// The "Efficiency fit" section of docs/validation.md (`paraplan validate --fit-efficiency ...
// --format markdown`): per GPU family, the runs fitted and held out, the MAPE before and after,
// and every parameter's prior, fitted value and bounds.
#pragma once

#include <string>

#include "calib/efficiency_fit.h"

namespace paraplan {

std::string EfficiencyFitMarkdown(const EfficiencyFitResult& fit, const std::string& runs_file);

}  // namespace paraplan
