// The MoE runs of issue 37's second MoE conversion (the K rows of docs/validation/public_runs.yaml;
// docs/validation/README.md, "K01-K20"): every row is an MoE run
// with expert parallelism of at least 8 on DGX H100 and states its whole plan; the rows load and
// the pairs that isolate one mechanism predict as that mechanism says. The set-wide error bounds
// stay with the public-runs tests.
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <vector>

#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

using test::FixedKnob;
using test::PredictedStep;

std::vector<RunSpec> KRuns() {
  return test::PublicRowsWithPrefix('K');
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
    const int64_t tp = FixedKnob(run.plan.tp), pp = FixedKnob(run.plan.pp),
                  dp = FixedKnob(run.plan.dp), cp = FixedKnob(run.plan.cp),
                  ep = FixedKnob(run.plan.ep);
    CHECK(ep >= 8);
    CHECK(tp * pp * dp * cp == run.gpus);  // the stated sizes multiply to the GPU count
    CHECK(FixedKnob(run.plan.micro_batch) > 0);
    CHECK(FixedKnob(run.plan.global_batch) > 0);
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
