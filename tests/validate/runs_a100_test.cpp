// The A100 layout sweeps of issue 37 (docs/validation/public_runs.yaml, rows L01-L299;
// docs/validation/README.md, "A100 layout sweeps"): Hagemann et al. 2023's measured sweep sheets (L01-L248, the
// Aleph Alpha Scaling trainer) and Zero Bubble PP's Megatron-LM baselines (L249-L299). The rows
// load, state the plan their source fixes, and two pairs that isolate one mechanism predict in
// the measured direction. The set-wide error bounds stay with the public-runs tests.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "calib/cross_validation.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// Loaded once for both test cases (the file's 299 inline models are most of the test's time).
const std::vector<RunSpec>& LRuns() {
  static const std::vector<RunSpec> runs = [] {
    std::vector<RunSpec> picked;
    for (RunSpec& run : LoadValidationRuns(
             std::string(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml"))) {
      if (run.id.front() == 'L') picked.push_back(std::move(run));
    }
    return picked;
  }();
  return runs;
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

int64_t Fixed(const Choice<int64_t>& knob) {
  return knob && knob->size() == 1 ? knob->front() : -1;  // -1: left to the search
}

}  // namespace

TEST_CASE("L runs: A100 layout sweeps, every parallel size and batch stated",
          "[validate][public]") {
  const std::vector<RunSpec>& runs = LRuns();
  REQUIRE(runs.size() == 299);
  std::set<std::string> ids;
  std::set<std::string> groups;
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.error.empty());
    CHECK(ids.insert(run.id).second);
    groups.insert(SourceGroup(run.source));
    CHECK(run.cluster.gpu.name == "A100-SXM4-80GB");
    const int64_t tp = Fixed(run.plan.tp), pp = Fixed(run.plan.pp), dp = Fixed(run.plan.dp),
                  mb = Fixed(run.plan.micro_batch), gbs = Fixed(run.plan.global_batch);
    CHECK(tp * pp * dp == run.gpus);  // the stated sizes multiply to the GPU count
    REQUIRE(mb > 0);
    CHECK(gbs % (dp * mb) == 0);  // whole micro-batches per data-parallel rank
    CHECK(run.measured.at("step_time_s") > 0);
    // L01-L248: Aleph Alpha's trainer (no Megatron-LM profile applies); the rest Megatron-LM.
    const bool hagemann = std::stoi(run.id.substr(1)) <= 248;
    CHECK(run.framework == (hagemann ? Framework::kScaling : Framework::kMegatron));
  }
  CHECK(groups == std::set<std::string>{"Hagemann et al.", "Qi et al."});
}

TEST_CASE("L runs: recompute and interleaving pairs predict in the measured direction",
          "[validate][public]") {
  const std::vector<RunSpec>& runs = LRuns();
  // L01 / L10: LLaMA 13B on 64 A100, TP 1 PP 2 mb 1, no recompute vs every layer recomputed:
  // measured 33.70 s and 44.13 s (x1.31).
  const double ratio = PredictedStep(runs, "L10") / PredictedStep(runs, "L01");
  CHECK(ratio > 1.2);
  CHECK(ratio < 1.45);
  // L249 / L252: GPT 1.5B on 8 A100 (PP 8), 24 micro-batches, 1F1B vs interleaved 1F1B:
  // measured 1.525 s and 1.374 s.
  const double one_f_one_b = PredictedStep(runs, "L249");
  CHECK(PredictedStep(runs, "L252") < one_f_one_b);
  CHECK(one_f_one_b == Approx(1.525).epsilon(0.10));
}
