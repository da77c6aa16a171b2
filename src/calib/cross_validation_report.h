// How `paraplan validate --cv source` shows its leave-one-source-out result: the "cv" object of
// the JSON, the terminal table, and the headline section of docs/validation.md.
#pragma once

#include <string>
#include <vector>

#include "calib/cross_validation.h"
#include "core/json.h"
#include "validate/validation_report.h"

namespace paraplan {

// {"by": "source", "group_key": "...", "folds": [{"source", "ids", "fitted_ids",
//  "prior_families", "summary": {...}, "efficiency": {family: {parameter: value}},
//  "runs": [run objects as in "runs"]}], "overall": {"step_time_s": {"n","mape_pct",
//  "max_abs_pct"}}, "source_mean_mape_pct", "evaluation": a fold object for the evaluation-only
//  runs (present only when there are any)}
Json CrossValidationJson(const CrossValidationResult& cv);

// Per-source and overall step-time error, aligned for a terminal; `in_sample` (may be empty) adds
// each run's error with the shipped efficiencies (looked up by id in those reports) beside its
// leave-one-source-out error. Evaluation-only runs get their own table.
std::string CrossValidationTable(const CrossValidationResult& cv,
                                 const std::vector<ValidationReport>& in_sample);

// The Markdown section docs/validation.md leads with: per-source and overall error, every run's
// left-out prediction, the independent evaluation of the evaluation-only runs (when there are
// any), and the fold fits' parameters.
std::string CrossValidationMarkdown(const CrossValidationResult& cv,
                                    const std::vector<ValidationReport>& in_sample);

// The four figures docs/validation.md leads with: per grouping, the pooled step-time MAPE and
// the worst group (`validate --cv source,gpu,framework,scale`).
std::vector<std::vector<std::string>> CrossValidationSummaryRows(
    const std::vector<const CrossValidationResult*>& cvs);
std::string CrossValidationSummaryTable(const std::vector<const CrossValidationResult*>& cvs);
std::string CrossValidationSummaryMarkdown(const std::vector<const CrossValidationResult*>& cvs);

}  // namespace paraplan
