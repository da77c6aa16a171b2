// The rows of docs/validation/public_runs.yaml one conversion added (one id prefix: K, L, R...),
// and one row's predicted step, for the tests that check a conversion's rows load, state their
// plan and predict in the measured direction (runs_moe2_test, runs_a100_test, runs_fsdp_test,
// runs_breadth_test, runs_mlp6_test).
#pragma once

#include <catch2/catch.hpp>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "validate/validation_report.h"

namespace paraplan::test {

// The runs of public_runs.yaml whose id starts with `prefix`, in file order.
inline std::vector<RunSpec> PublicRowsWithPrefix(char prefix) {
  std::vector<RunSpec> picked;
  for (RunSpec& run :
       LoadValidationRuns(std::string(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml"))) {
    if (!run.id.empty() && run.id.front() == prefix) picked.push_back(std::move(run));
  }
  return picked;
}

inline const RunSpec& FindRow(const std::vector<RunSpec>& runs, const std::string& id) {
  for (const RunSpec& run : runs) {
    if (run.id == id) return run;
  }
  FAIL("no run " << id);
  return runs.front();
}

// The number of a row id of one letter and digits ("M51" -> 51); 0 for any other id, such as a
// later conversion's two-letter prefix under the same first letter (MX02, DS13).
inline int RowNumber(const std::string& id) {
  if (id.size() < 2) return 0;
  for (size_t i = 1; i < id.size(); ++i) {
    if (!std::isdigit(static_cast<unsigned char>(id[i]))) return 0;
  }
  return std::stoi(id.substr(1));
}

// `validate` over the rows as CI runs it (2 threads, the best two plans simulated), the shipped
// efficiencies.
inline ValidationReport ValidateRows(const std::vector<RunSpec>& runs) {
  ValidationOptions options;
  options.threads = 2;  // CI has 2 cores
  options.run.simulate_top = 2;
  return ValidateRuns(runs, options);
}

// The step `validate` predicts for one row (its stated plan, the shipped efficiencies).
inline double PredictedStep(const std::vector<RunSpec>& runs, const std::string& id) {
  ValidationOptions options;
  options.threads = 1;
  options.holdout_every = 0;
  options.run.simulate_top = 1;
  const ValidationReport report = ValidateRuns({FindRow(runs, id)}, options);
  REQUIRE(report.runs.size() == 1);
  INFO(id << ": " << report.runs[0].message);
  REQUIRE(report.runs[0].status == RunStatus::kOk);
  return report.runs[0].predicted.at("step_time_s");
}

// A knob's one stated value, or -1 when the row leaves it to the search.
template <typename T>
int64_t FixedKnob(const Choice<T>& knob) {
  return knob && knob->size() == 1 ? static_cast<int64_t>(knob->front()) : -1;
}

}  // namespace paraplan::test
