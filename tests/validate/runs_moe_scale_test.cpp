// The MoE rows of stop 41 (branch h43moe; docs/validation/README.md, "F01-F04" and "G40, G41"):
// MLPerf Training v6.0's GPT-OSS 20B at 8-72 GPUs from NVIDIA and Nebius (one plan, CP 2 x EP 4,
// on 8-GPU B300 nodes over the network and in NVL72 racks; EP 1 on one node), and DeepSeek-V3 on
// 512 and 1,024 H100 with EP 64 folded over TP 2 x DP 32 (EP > DP). The rows load, state their
// config's plan, join the source groups they belong to, and predict in the measured order.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "plan/framework.h"
#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

TEST_CASE(
    "F01-F04: GPT-OSS 20B from two MLPerf v6.0 submitters, plans stated, HGX slower than NVL72",
    "[validate][public]") {
  const std::vector<RunSpec> rows = test::PublicRowsWithPrefix('F');
  REQUIRE(rows.size() == 4);
  for (const RunSpec& run : rows) {
    INFO(run.id);
    CHECK(run.framework == Framework::kNemo);
    // Joins the "MLPerf Training v6.0" leave-one-source-out group with M56-M63.
    CHECK(run.source.rfind("MLPerf Training v6.0 (", 0) == 0);
    REQUIRE(run.model.IsMoe());
    CHECK(run.model.moe->experts == 32);
    CHECK(run.model.moe->top_k == 4);
    CHECK(test::FixedKnob(run.plan.tp) == 1);
    CHECK(test::FixedKnob(run.plan.pp) == 1);
    // Every log prints gradient_accumulation_steps 1: GBS = micro-batch x DP.
    CHECK(test::FixedKnob(run.plan.global_batch) ==
          test::FixedKnob(run.plan.micro_batch) * test::FixedKnob(run.plan.dp));
    CHECK(test::FixedKnob(run.plan.dp) * test::FixedKnob(run.plan.cp) == run.gpus);
    // B300 and GB300 are GPUs nobody fitted: evaluation-only, and only those rows are.
    CHECK(run.evaluation_only == (run.cluster.gpu.name.find("B300") != std::string::npos));
  }
  // The 8-GPU rows run without expert parallelism; the 64- and 72-GPU rows run M57's plan.
  for (const char* id : {"F01", "F02"}) {
    const RunSpec& run = test::FindRow(rows, id);
    CHECK(run.gpus == 8);
    CHECK(test::FixedKnob(run.plan.ep) == 1);
    CHECK(test::FixedKnob(run.plan.cp) == 1);
  }
  for (const char* id : {"F03", "F04"}) {
    const RunSpec& run = test::FindRow(rows, id);
    CHECK(test::FixedKnob(run.plan.ep) == 4);
    CHECK(test::FixedKnob(run.plan.cp) == 2);
    CHECK(test::FixedKnob(run.plan.micro_batch) == 1);
  }
  // The submission's pretrain.py builds the model with the Llama 3.1 tokenizer (vocab_size=128256)
  // and reduces gradients in bf16 (grad_reduce_in_fp32=False) in 134,217,728-parameter buckets.
  for (const RunSpec& run : rows) {
    INFO(run.id);
    CHECK(run.model.vocab == 128256);
    REQUIRE(run.plan.grad_reduce_in_fp32.has_value());
    CHECK(*run.plan.grad_reduce_in_fp32 == std::vector<bool>{false});
    REQUIRE(run.plan.dp_bucket_MB.has_value());
    CHECK(run.plan.dp_bucket_MB->front() == Approx(134217728.0 * 2 / 1e6));
  }
  // One plan (CP 2, EP 4, one sequence per GPU) measures 0.1773 s on 64 B300 in 8-GPU nodes with
  // DP 32 over the network (F03) and 0.1656 s in a GB200 NVL72 rack (M57): the HGX run is the
  // slower one, and the prediction orders them so (both predicted fast: lessons.md, stop 41
  // h43moe).
  std::vector<RunSpec> pair = {test::FindRow(rows, "F03")};
  for (RunSpec& run : test::PublicRowsWithPrefix('M')) {
    if (run.id == "M57") pair.push_back(std::move(run));
  }
  REQUIRE(pair.size() == 2);
  CHECK(test::PredictedStep(pair, "F03") > test::PredictedStep(pair, "M57"));
}

TEST_CASE("G40-G41: DeepSeek-V3 with EP 64 folded over TP 2 x DP 32 on H100 predicts",
          "[validate][public]") {
  const std::vector<RunSpec> rows = test::PublicRowsWithPrefix('G');
  for (const char* id : {"G40", "G41"}) {
    const RunSpec& run = test::FindRow(rows, id);
    INFO(id);
    CHECK(run.cluster.gpu.name.find("H100") != std::string::npos);
    const int64_t tp = test::FixedKnob(run.plan.tp), dp = test::FixedKnob(run.plan.dp);
    const int64_t ep = test::FixedKnob(run.plan.ep);
    CHECK(ep == 64);
    CHECK(ep > dp);              // the plan the search once refused
    CHECK((tp * dp) % ep == 0);  // Megatron-Core's folding: EP x ETP divides TP x CP x DP
    CHECK(test::FixedKnob(run.plan.etp) == 1);
  }
  // Measured 48.948 s (PP 8, 512 GPUs) and 52.04 s (PP 16, 1,024): the same work per GPU, one
  // more pipeline hop per micro-batch and twice the micro-batches.
  const double g40 = test::PredictedStep(rows, "G40"), g41 = test::PredictedStep(rows, "G41");
  CHECK(g41 > g40);
  CHECK(g41 < 1.2 * g40);
}
