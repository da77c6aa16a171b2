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

TEST_CASE("K runs: the EP-overlap pair predicts in the measured direction, the layout row runs",
          "[validate][public]") {
  const std::vector<RunSpec> runs = KRuns();
  // K07 / K08: the same plan without and with the EP all-to-all hidden under the other
  // micro-batch's compute ("+1f1b overlap"): measured 19.7 s and 17.6 s.
  CHECK(PredictedStep(runs, "K08") < PredictedStep(runs, "K07"));
  // K12: NeMo's DeepSeek-V3 layout for PP 8 x VP 2 (embedding + 4 | 4 x 14 | 1 + loss) evaluates.
  CHECK(PredictedStep(runs, "K12") > 0);
}

TEST_CASE("K runs: AutoModel's fake balanced gate reaches one node per token",
          "[validate][public]") {
  // FakeBalancedGate (AutoModel @ 8d9bfb90) routes each token to k consecutive experts aligned to
  // k; the rows state it as E/k groups with one chosen. DeepSeek-V3 at EP 64: 32 groups of 8.
  const std::vector<RunSpec> runs = KRuns();
  for (const char* id : {"K01", "K02", "K03", "K04", "K05", "K06"}) {
    INFO(id);
    bool found = false;
    for (const RunSpec& run : runs) {
      if (run.id != id) continue;
      found = true;
      REQUIRE(run.model.moe.has_value());
      CHECK(run.model.moe->group_topk == 1);
      CHECK(run.model.moe->groups * run.model.moe->top_k == run.model.moe->experts);
    }
    CHECK(found);
  }
}

TEST_CASE("J runs: EP across the node boundary costs the same tokens per GPU more",
          "[validate][public]") {
  // J01 / J02 (docs/validation/README.md, "J01-J02"): one AutoModel recipe, 65,536 tokens per
  // GPU per step, EP 8 inside one node against EP 16 over two: measured 5.366 s and 5.906 s.
  const std::vector<RunSpec> runs = test::PublicRowsWithPrefix('J');
  REQUIRE(runs.size() == 4);
  CHECK(PredictedStep(runs, "J02") > PredictedStep(runs, "J01"));
}

TEST_CASE("J runs: HybridEP's twins run faster than DeepEP's, as measured", "[validate][public]") {
  // J03 / J04: J01's / J02's recipe with `dispatcher: hybridep` (moe_hybridep): measured 5.085 s
  // against 5.366 s on one node, 5.472 s against 5.906 s on two.
  const std::vector<RunSpec> runs = test::PublicRowsWithPrefix('J');
  const double j01 = PredictedStep(runs, "J01"), j02 = PredictedStep(runs, "J02");
  const double j03 = PredictedStep(runs, "J03"), j04 = PredictedStep(runs, "J04");
  CHECK(j03 < j01);
  CHECK(j04 < j02);
  CHECK(j04 > j03);  // EP across the node boundary still costs more
}

TEST_CASE("AutoModel's FSDP2 rows state how long their weights stay gathered",
          "[validate][public]") {
  // Stop 45: the MoE parallelizer at 8d9bfb90 does not reshard after forward unless the recipe
  // says so (gptoss_120b_te_deepep.yaml, K05, says true); the J rows' recipe at 60dfabfe3 also
  // turns gradient sync off until the last micro-batch (enable_fsdp_optimizations), which keeps
  // the weights gathered for the step.
  for (const RunSpec& run : KRuns()) {
    if (run.id > "K06") continue;
    INFO(run.id);
    const bool keep = run.plan.kernels && run.plan.kernels->zero3_keep_after_forward;
    CHECK(keep == (run.id != "K05"));
  }
  for (const RunSpec& run : test::PublicRowsWithPrefix('J')) {
    INFO(run.id);
    CHECK(FixedKnob(run.plan.zero3_keep_gathered) == 1);
    CHECK((!run.plan.kernels || !run.plan.kernels->zero3_keep_after_forward));
  }
  // Gathered once per micro-batch instead of twice: K02 (PP 4 x VPP 8, 256 GPUs) is faster for it.
  std::vector<RunSpec> k02;
  for (const RunSpec& run : KRuns()) {
    if (run.id == "K02") k02.push_back(run);
  }
  REQUIRE(k02.size() == 1);
  const double kept = PredictedStep(k02, "K02");
  k02[0].plan.kernels->zero3_keep_after_forward = false;
  CHECK(PredictedStep(k02, "K02") > kept);
}
