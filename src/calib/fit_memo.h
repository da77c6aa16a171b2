// What the efficiency fit computes for one run at its family's prior, kept between fits of the
// same runs. Every fit of a family starts from the family's prior (PriorEfficiency), so each
// cross-validation fold that refits a family repeats, for every run of it: the plan search at the
// prior (the first outer iteration's frozen plan, and the held-out runs' "before" figures), and
// the step times of that frozen plan where Levenberg-Marquardt starts (the prior itself and one
// Jacobian step per parameter). The memo keeps those, keyed by run id and the exact efficiency
// (Efficiency::operator==, every field), so a later fold takes them instead of computing them
// again: the same numbers, bit for bit. Only those points are recorded (the later steps of a fit
// depend on every run of the fold and are not repeated), so it holds a few entries per run.
// Safe to share between threads; valid only between fits of the same runs with the same
// options (FamilyFitCache's contract: a run id names one run).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "hardware/efficiency.h"
#include "plan/parallel_plan.h"

namespace paraplan {

// What the fit reads from one run's search (EvaluateRun): whether it gave a plan with a measured
// step time to compare, that plan, and the step-time error.
struct FitSearch {
  bool usable = false;
  double error_pct = 0;  // step_time_s, when usable
  ParallelPlan plan;
  bool simulated = true;
  double measured_step_s = 0;
};

class FitMemo {
 public:
  // The search of run `run_id` with `efficiency`, when recorded.
  std::optional<FitSearch> Search(const std::string& run_id, const Efficiency& efficiency) const;
  void RecordSearch(const std::string& run_id, const Efficiency& efficiency,
                    const FitSearch& search);

  // The step time (TimedStepSeconds) of the plan the search with `searched_with` chose, predicted
  // with `efficiency`, when recorded. RecordStep needs the search recorded first.
  std::optional<double> Step(const std::string& run_id, const Efficiency& searched_with,
                             const Efficiency& efficiency) const;
  void RecordStep(const std::string& run_id, const Efficiency& searched_with,
                  const Efficiency& efficiency, double seconds);

  // How many searches and step times were taken from the memo.
  int64_t Hits() const;

 private:
  struct Entry {
    Efficiency searched_with;
    FitSearch search;
    std::vector<std::pair<Efficiency, double>> steps;
  };
  const Entry* Find(const std::string& run_id, const Efficiency& searched_with) const;

  mutable std::mutex mutex_;
  mutable int64_t hits_ = 0;
  std::map<std::string, std::vector<Entry>> runs_;
};

}  // namespace paraplan
