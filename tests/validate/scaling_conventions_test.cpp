// A Hagemann et al. 2023 sweep row under Aleph Alpha Scaling 737f855's profile: a knob the sheet
// does not state takes the trainer's default (sequence parallelism off), not the search's
// fastest value, and the ZeRO stage is searched over the stages the trainer runs only.
#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

#include "validate/framework_conventions.h"
#include "validate/run_evaluation.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

bool HasPrefix(const std::vector<std::string>& list, const std::string& prefix) {
  return std::any_of(list.begin(), list.end(),
                     [&](const std::string& s) { return s.rfind(prefix, 0) == 0; });
}

}  // namespace

TEST_CASE("scaling: an unstated sequence parallelism is the trainer's default, never searched",
          "[validate]") {
  const FrameworkProfile* scaling = FindProfile(Framework::kScaling, "737f855");
  REQUIRE(scaling);
  PlanConstraints c;
  c.tp = std::vector<int64_t>{4};
  std::vector<std::string> notes;
  const PlanConstraints out = ApplyFrameworkConventions(scaling, ModelSpec{}, c, &notes);
  REQUIRE(out.sequence_parallel);
  CHECK(*out.sequence_parallel == std::vector<bool>{false});
  REQUIRE(out.zero);
  CHECK(*out.zero == std::vector<int>{0, 1});  // zero=2/3 refused: not searched
  CHECK(HasPrefix(notes, "sequence_parallel=false (Scaling default"));
  CHECK(HasPrefix(notes, "zero searched over 0,1"));
  // Stated, it is kept.
  c.sequence_parallel = std::vector<bool>{true};
  c.zero = std::vector<int>{1};
  const PlanConstraints stated = ApplyFrameworkConventions(scaling, ModelSpec{}, c, nullptr);
  CHECK(*stated.sequence_parallel == std::vector<bool>{true});
  CHECK(*stated.zero == std::vector<int>{1});
}

TEST_CASE("scaling: validate scores L03 with sequence parallelism off and ZeRO-1 at most",
          "[validate]") {
  const std::vector<RunSpec> runs =
      LoadValidationRuns(PARAPLAN_SOURCE_DIR "/tests/validate/data/scaling_runs.yaml");
  REQUIRE(runs.size() == 1);
  RunEvaluationOptions options;
  options.search_threads = 1;
  options.simulate_top = 1;
  const RunOutcome out = EvaluateRun(runs.front(), options);
  INFO(out.message);
  REQUIRE(out.status == RunStatus::kOk);
  REQUIRE(out.result);
  CHECK_FALSE(out.result->plan.sequence_parallel);
  CHECK(out.result->plan.zero <= 1);
  CHECK_FALSE(HasPrefix(out.searched, "sequence_parallel"));
  CHECK(HasPrefix(out.conventions, "sequence_parallel=false"));
  CHECK(HasPrefix(out.conventions, "overlap_pp_comm=false"));
  CHECK(out.fits);  // 13B at TP 2 ran on 80 GB A100s with the trainer's ZeRO-1
}
