// A study's results: one row per point, and the writers for results.csv, results.json and
// chart.svg. The same table always gives the same bytes; shards serialize their rows exactly
// (src/study/study_shard.h) so that merged shards write what one run writes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cost/step_result.h"
#include "report/svg_chart.h"
#include "search/budget.h"

namespace paraplan {

// Plan columns reported per point, in order (tp, pp, ..., overlap_param_gather: the knob table's
// names).
const std::vector<std::string>& StudyPlanColumns();
std::vector<std::string> PlanColumnValues(const ParallelPlan& plan);

struct StudyRow {
  int64_t index = 0;
  std::vector<std::string> values;  // one per swept key, as written in the study file
  // ok | no-fit (simulate: the plan does not fit) | invalid (breaks a plan rule) |
  // infeasible (plan: nothing fits) | error (the point could not be evaluated)
  std::string status;
  std::string reason;                  // empty for ok
  bool has_result = false;             // metrics and plan are meaningful
  std::vector<double> metrics;         // StudyMetricNames() order (NaN without a result)
  std::vector<std::string> plan;       // StudyPlanColumns() order (empty without a result)
  int64_t searched = 0, feasible = 0;  // plan mode: the search's counts
};

struct StudyTable {
  std::string name;
  std::string mode;    // plan | simulate
  std::string metric;  // a StudyMetricNames() entry
  std::string title;
  std::string x_label;                 // empty: derived from the first key
  std::vector<std::string> keys;       // the swept keys, flattened
  std::vector<int64_t> key_dimension;  // the grid dimension of each key
  int64_t total_points = 0;
  std::vector<StudyRow> rows;  // by index
};

// True when plan column `column` (StudyPlanColumns() order) repeats a swept key's column: the
// sweep sets that knob (`tp` or `plan.tp`) and every point's plan took the value as written.
// results.csv and report.html leave such a column out (the swept key's column holds it).
bool RepeatsSweptKey(const StudyTable& table, size_t column);

// Fills a row from a result (status ok, or no-fit when it does not fit). A plan that leaves
// seq_len at its default (0) shows `model_seq_len`, the length it ran at (when > 0); `budget`
// gives the budget metrics (NaN without it).
void SetRowResult(StudyRow& row, const StepResult& result, int64_t model_seq_len = 0,
                  const PlanBudget* budget = nullptr);

std::string StudyCsv(const StudyTable& table);
std::string StudyJson(const StudyTable& table);
LineChart StudyChart(const StudyTable& table);
std::string StudySvg(const StudyTable& table);

// Writes DIR/results.csv, DIR/results.json and DIR/chart.svg (creating DIR). Throws
// InputError when DIR cannot be written.
void WriteStudyOutputs(const StudyTable& table, const std::string& dir);

// Text file helpers shared by the study writers.
void WriteTextFile(const std::string& path, const std::string& text);
std::string ReadTextFile(const std::string& path);

}  // namespace paraplan
