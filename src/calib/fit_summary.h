// Human and machine summaries of a profile fit: what was fitted, how well (R², residuals).
#pragma once

#include <string>

#include "calib/profile_fit.h"
#include "core/json.h"

namespace paraplan {

// A plain-text table: one line per collective fit (op, tier, ranks, points, latency_us,
// bandwidth_GBps, R², max |residual| %), then GEMM, attention and memory totals.
std::string FitSummaryTable(const ProfileFitResult& result);

// The same as JSON: {"collectives": [{op, tier, ranks, points, latency_us, bandwidth_GBps, r2,
// max_abs_residual_pct, residuals: [{bytes, residual_pct}]}], "gemm": {dtype: points},
// "attention_points", "memory_bandwidth_GBps", "warnings": [...]}.
Json FitSummaryJson(const ProfileFitResult& result);

// One line per collective size with its residual, for stderr under --verbose.
std::string FitResidualLines(const ProfileFitResult& result);

}  // namespace paraplan
