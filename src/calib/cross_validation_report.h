// How `paraplan validate --cv source` shows its leave-one-source-out result: the "cv" object of
// the JSON, the terminal table, and the headline section of docs/validation.md.
#pragma once

#include <string>

#include "calib/cross_validation.h"
#include "core/json.h"
#include "validate/validation_report.h"

namespace paraplan {

// {"by": "source", "group_key": "...", "folds": [{"source", "ids", "fitted_ids",
//  "prior_families", "summary": {...}, "efficiency": {family: {parameter: value}},
//  "runs": [run objects as in "runs"]}], "overall": {"step_time_s": {"n","mape_pct",
//  "max_abs_pct"}}, "source_mean_mape_pct"}
Json CrossValidationJson(const CrossValidationResult& cv);

// Per-source and overall step-time error, aligned for a terminal; `in_sample` (may be null) adds
// each run's error with the shipped efficiencies beside its leave-one-source-out error.
std::string CrossValidationTable(const CrossValidationResult& cv,
                                 const ValidationReport* in_sample);

// The Markdown section docs/validation.md leads with: per-source and overall error, every run's
// left-out prediction, and the fold fits' parameters.
std::string CrossValidationMarkdown(const CrossValidationResult& cv,
                                    const ValidationReport* in_sample);

}  // namespace paraplan
