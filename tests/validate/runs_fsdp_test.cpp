// The PyTorch FSDP-family runs of issue 37 (docs/validation/public_runs.yaml, rows R01-R14;
// docs/validation/README.md, "PyTorch FSDP-family trainers"): AI2's OLMo-core (`framework:
// olmo-core`, an unread profile, so every row states every knob its script fixes) and torchtitan as
// IBM and the torchao team ran it. The rows load, group as `--cv framework` and `--cv source`
// should group them, and the pairs that differ only in precision predict in the measured direction.
// The set-wide error bounds stay with the public-runs tests (stop 36 joined these rows there).
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "calib/cross_validation.h"
#include "plan/framework_profile.h"
#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

using test::FixedKnob;
using test::PredictedStep;

std::vector<RunSpec> FsdpRuns() {
  return test::PublicRowsWithPrefix('R');
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
    const int64_t tp = FixedKnob(run.plan.tp), pp = FixedKnob(run.plan.pp),
                  dp = FixedKnob(run.plan.dp), cp = FixedKnob(run.plan.cp);
    CHECK(tp * pp * dp * cp == run.gpus);  // the stated sizes multiply to the GPU count
    CHECK(FixedKnob(run.plan.zero) == 3);  // FSDP / FSDP2 / HSDP: parameters sharded
    CHECK(run.measured.at("tokens_per_s_per_gpu") > 0);
    if (run.framework == Framework::kOlmoCore) {
      ++olmo;
      CHECK(CvGroup(run, CvGrouping::kFramework) == "olmo-core");
      // An unread profile defaults nothing: the rows state what the script fixes.
      CHECK(FixedKnob(run.plan.micro_batch) > 0);
      CHECK(FixedKnob(run.plan.global_batch) > 0);
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
