// Human-readable validation output: the terminal table and the Markdown document that
// docs/validation.md is generated from (`paraplan validate ... --format markdown`).
#pragma once

#include <string>
#include <vector>

#include "plan/parallel_plan.h"
#include "validate/validation_report.h"

namespace paraplan {

// "tp8 pp4 dp32 v2 mb1 full z1 sp bf16": the plan in one short cell.
std::string PlanShort(const ParallelPlan& plan);

// The source text up to its first comma or parenthesis ("Narayanan et al.").
std::string SourceShort(const std::string& source);

// The grouping key of a run: its `source` up to the first comma or opening parenthesis, with
// surrounding spaces removed ("Narayanan et al., SC'21, ..." → "Narayanan et al."); runs without
// a source form the group "(no source)". Cross-validation's folds and the fit's source weights.
std::string SourceGroup(const std::string& source);

// One row per run and the summaries, aligned for a terminal.
std::string ValidationTable(const ValidationReport& report);

struct MarkdownInput {
  std::vector<ValidationReport> reports;  // one section per runs file
  std::string fit_section;  // Markdown placed last (calib/efficiency_fit_text.h), or empty
  std::string command;      // the command line that produced the document
  std::string headline;     // Markdown placed first (the leave-one-source-out section)
  std::string notes;        // hand-written lessons (Markdown) placed after the worst rows
  size_t worst_rows = 5;
  size_t worst_jobs = 10;  // the most mis-ordered jobs listed under each ranking section
};

std::string ValidationMarkdown(const MarkdownInput& input);

}  // namespace paraplan
