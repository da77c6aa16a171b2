// The MoE runs of issue 37's second MoE conversion (the K rows of docs/validation/public_runs.yaml;
// docs/validation/README.md, "K01-K20"): every row is an MoE run
// with expert parallelism of at least 8 on DGX H100 and states its whole plan; the rows load and
// the pairs that isolate one mechanism predict as that mechanism says. The set-wide error bounds
// stay with the public-runs tests.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "validate/validation_report.h"

using namespace paraplan;

namespace {

std::vector<RunSpec> KRuns() {
  std::vector<RunSpec> picked;
  for (RunSpec& run :
       LoadValidationRuns(std::string(PARAPLAN_SOURCE_DIR "/docs/validation/public_runs.yaml"))) {
    if (!run.id.empty() && run.id.front() == 'K') picked.push_back(std::move(run));
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

int64_t Fixed(const Choice<int64_t>& knob) {
  return knob && knob->size() == 1 ? knob->front() : -1;  // -1: left to the search
}

}  // namespace

TEST_CASE("K runs: MoE with EP >= 8 on DGX H100, every parallel size stated",
          "[validate][public]") {
  const std::vector<RunSpec> runs = KRuns();
  REQUIRE(runs.size() == 20);
  std::set<std::string> ids;
  std::set<std::string> sources;
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(ids.insert(run.id).second);
    sources.insert(run.source);
    CHECK(run.model.IsMoe());
    CHECK(run.cluster.gpu.name == "H100-SXM5-80GB");
    const int64_t tp = Fixed(run.plan.tp), pp = Fixed(run.plan.pp), dp = Fixed(run.plan.dp),
                  cp = Fixed(run.plan.cp), ep = Fixed(run.plan.ep);
    CHECK(ep >= 8);
    CHECK(tp * pp * dp * cp == run.gpus);  // the stated sizes multiply to the GPU count
    CHECK(Fixed(run.plan.micro_batch) > 0);
    CHECK(Fixed(run.plan.global_batch) > 0);
    CHECK(run.measured.at("step_time_s") > 0);
  }
  CHECK(sources.size() == 3);  // NeMo AutoModel, Megatron-MoE-ModelZoo, dgxc-benchmarking
}

TEST_CASE("K runs: the EP-overlap pair predicts in the measured direction; the layout row runs",
          "[validate][public]") {
  const std::vector<RunSpec> runs = KRuns();
  // K07 / K08: the same plan without and with the EP all-to-all hidden under the other
  // micro-batch's compute ("+1f1b overlap"): measured 19.7 s and 17.6 s.
  CHECK(PredictedStep(runs, "K08") < PredictedStep(runs, "K07"));
  // K12: NeMo's DeepSeek-V3 layout for PP 8 x VP 2 (embedding + 4 | 4 x 14 | 1 + loss) evaluates.
  CHECK(PredictedStep(runs, "K12") > 0);
}
