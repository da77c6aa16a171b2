// The PyTorch FSDP-family runs of issue 37 (docs/validation/public_runs.yaml, rows R01-R14;
// docs/validation/README.md, "PyTorch FSDP-family trainers"): AI2's OLMo-core (`framework: olmo-core`, an unread profile, so
// every row states every knob its script fixes) and torchtitan as IBM and the torchao team ran
// it. The rows load, group as `--cv framework` and `--cv source` should group them, and the pairs
// that differ only in precision predict in the measured direction. The set-wide error bounds stay
// with the public-runs tests (stop 36 joined these rows there).
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "calib/cross_validation.h"
#include "plan/framework_profile.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// The R rows of public_runs.yaml (joined there from runs-fsdp.yaml at stop 36).
std::vector<RunSpec> FsdpRuns() {
  std::vector<RunSpec> picked;
  for (RunSpec& run :
       LoadValidationRuns(std::string(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml"))) {
    if (run.id.front() == 'R') picked.push_back(std::move(run));
  }
  return picked;
}

const RunSpec& Find(const std::vector<RunSpec>& runs, const std::string& id) {
  for (const RunSpec& run : runs) {
    if (run.id == id) return run;
  }
  FAIL("no run " << id);
  return runs.front();
}

double PredictedStep(const std::vector<RunSpec>& runs, const std::string& id) {
  ValidationOptions options;
  options.threads = 1;
  options.holdout_every = 0;
  options.run.simulate_top = 1;
  const ValidationReport report = ValidateRuns({Find(runs, id)}, options);
  REQUIRE(report.runs.size() == 1);
  INFO(id << ": " << report.runs[0].message);
  REQUIRE(report.runs[0].status == RunStatus::kOk);
  return report.runs[0].predicted.at("step_time_s");
}

template <typename T>
int64_t Fixed(const Choice<T>& knob) {
  return knob && knob->size() == 1 ? static_cast<int64_t>(knob->front()) : -1;  // -1: searched
}

}  // namespace

TEST_CASE("olmo-core is a framework value with an unread profile", "[validate][framework]") {
  REQUIRE(FindProfile(Framework::kOlmoCore) != nullptr);
  CHECK(std::string(FindProfile(Framework::kOlmoCore)->version) == "unread");
  CHECK(FindProfile(Framework::kOlmoCore)->defaults.empty());  // nothing read: nothing defaulted
  CHECK(std::string(RunsName(Framework::kOlmoCore)) == "olmo-core");
  CHECK(std::string(DisplayName(Framework::kOlmoCore)) == "OLMo-core");
}

TEST_CASE("R runs: FSDP-family trainers, their plans stated, three sources", "[validate][public]") {
  const std::vector<RunSpec> runs = FsdpRuns();
  REQUIRE(runs.size() == 14);
  std::set<std::string> ids, sources;
  int olmo = 0;
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.id.front() == 'R');
    CHECK(ids.insert(run.id).second);
    sources.insert(CvGroup(run, CvGrouping::kSource));
    const int64_t tp = Fixed(run.plan.tp), pp = Fixed(run.plan.pp), dp = Fixed(run.plan.dp),
                  cp = Fixed(run.plan.cp);
    CHECK(tp * pp * dp * cp == run.gpus);  // the stated sizes multiply to the GPU count
    CHECK(Fixed(run.plan.zero) == 3);      // FSDP / FSDP2 / HSDP: parameters sharded
    CHECK(run.measured.at("tokens_per_s_per_gpu") > 0);
    if (run.framework == Framework::kOlmoCore) {
      ++olmo;
      CHECK(CvGroup(run, CvGrouping::kFramework) == "olmo-core");
      // An unread profile defaults nothing: the rows state what the script fixes.
      CHECK(Fixed(run.plan.micro_batch) > 0);
      CHECK(Fixed(run.plan.global_batch) > 0);
      CHECK(run.plan.recompute.has_value());
      CHECK(run.plan.precision.has_value());
      CHECK(run.measured.at("step_time_s") > 0);
    } else {
      CHECK(CvGroup(run, CvGrouping::kFramework) == "torchtitan");
    }
  }
  CHECK(olmo == 8);
  // OLMo-core README, the IBM/Meta float8 blog, torchao's float8 README (its MX README's B200
  // rows are T09-T10's measurements, csv only).
  CHECK(sources.size() == 3);
}

TEST_CASE("R runs: float8 predicts faster than bf16 where it measured faster",
          "[validate][public]") {
  const std::vector<RunSpec> runs = FsdpRuns();
  // OLMo-core 7B (R03/R04: 10,000 and 13,000 TPS) and torchao's Llama3-8b on 8 H100
  // (R13/R14: 6150 and 7689.5 tokens/s): each pair differs only in precision.
  CHECK(PredictedStep(runs, "R04") < PredictedStep(runs, "R03"));
  CHECK(PredictedStep(runs, "R14") < PredictedStep(runs, "R13"));
}
