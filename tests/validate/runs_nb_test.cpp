// NB01-NB05 of docs/validation/public_runs.yaml (stop 46, branch h51breadth; docs/validation/
// README.md, "NB01-NB05"): Dao-AILab flash-attention's own GPT-3 training-speed table (760M, 1.3B
// and 2.7B on 8 A100 80GB, Lightning DDP with ZeRO-1) and Alibaba PAI TorchAcc's comparison of the
// Hugging Face Trainer's Llama-3-8B under PyTorch FSDP1 and DeepSpeed ZeRO-3 on 8 A100 80GB. The
// rows load with the plans their configs fix, the steps reproduce the sources' own second columns,
// and the step-time errors with the shipped efficiencies stay within those measured at conversion.
// Tighten, never loosen silently.
#include <catch2/catch.hpp>
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include "bound_margin.h"
#include "validate/public_rows.h"
#include "validate/run_errors.h"
#include "validate/validation_report.h"
#include "validate/validation_text.h"

using namespace paraplan;

namespace {

using test::FixedKnob;
using test::PredictedStep;

// `paraplan validate docs/validation/public_runs.yaml` with the shipped hardware/efficiency.yaml
// (stop 45's refit) when the rows joined: NB01 -4.7, NB02 +5.4, NB03 +0.9, NB04 -4.4, NB05 +1.3%.
// MAPE over the five: 3.4%.
// After stop 46's refit (A100 scale-out 0.96, attention backward 0.58): NB01 -6.6, NB02 +3.7,
// NB03 -0.6, NB04 -5.5, NB05 +0.2% (3.3%).
using test::kMarginPct;
constexpr double kNbMapePct = 3.4 + kMarginPct;
constexpr double kNbMaxAbsPct = 6.6 + kMarginPct;

std::vector<RunSpec> NbRows() {
  std::vector<RunSpec> rows;
  for (RunSpec& run : test::PublicRowsWithPrefix('N')) {
    if (run.id.rfind("NB", 0) == 0) rows.push_back(std::move(run));
  }
  return rows;
}

}  // namespace

TEST_CASE("NB runs: flash-attention's GPT-3 table and TorchAcc's FSDP / ZeRO-3 pair load",
          "[validate][public]") {
  const std::vector<RunSpec> runs = NbRows();
  REQUIRE(runs.size() == 5);
  std::set<std::string> groups;
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.error.empty());
    groups.insert(SourceGroup(run.source));
    CHECK(run.gpus == 8);  // one node
    CHECK(run.cluster.gpu.name == "A100-SXM4-80GB");
    const int64_t dp = FixedKnob(run.plan.dp), mb = FixedKnob(run.plan.micro_batch),
                  gbs = FixedKnob(run.plan.global_batch);
    CHECK(FixedKnob(run.plan.tp) == 1);
    CHECK(FixedKnob(run.plan.pp) == 1);
    CHECK(dp == 8);
    REQUIRE(mb > 0);
    CHECK(gbs % (dp * mb) == 0);
    const double tokens = static_cast<double>(gbs) * static_cast<double>(run.model.seq_len) /
                          run.measured.at("step_time_s") / static_cast<double>(run.gpus);
    CHECK(tokens == Approx(run.measured.at("tokens_per_s_per_gpu")).epsilon(1e-4));
  }
  // Two sources new to the set.
  CHECK(groups.size() == 2);
  // flash-attention: GPT-2 blocks (GELU, LayerNorm, output tied to the embedding), ZeRO-1, no
  // checkpointing; the table's "Hours / 1B tokens" (1.13, 1.64, 3.27) from the converted step.
  const std::vector<std::pair<std::string, double>> hours = {
      {"NB01", 1.13}, {"NB02", 1.64}, {"NB03", 3.27}};
  for (const auto& [id, printed] : hours) {
    INFO(id);
    const RunSpec& run = test::FindRow(runs, id);
    CHECK(run.model.activation == Activation::kGelu);
    CHECK(run.model.tied_embeddings);
    CHECK(run.model.vocab == 50264);  // 50,257 padded to a multiple of 8
    CHECK(FixedKnob(run.plan.zero) == 1);
    const double tokens_per_s = static_cast<double>(FixedKnob(run.plan.global_batch)) * 2048.0 /
                                run.measured.at("step_time_s");
    CHECK(1e9 / tokens_per_s / 3600.0 == Approx(printed).margin(0.006));
  }
  // TorchAcc: the same Llama-3-8B plan under PyTorch FSDP1 and DeepSpeed ZeRO-3.
  const RunSpec& fsdp = test::FindRow(runs, "NB04");
  const RunSpec& ds = test::FindRow(runs, "NB05");
  CHECK(fsdp.framework == Framework::kTorchtitan);
  CHECK(ds.framework == Framework::kDeepSpeed);
  for (const RunSpec* run : {&fsdp, &ds}) {
    CHECK(FixedKnob(run->plan.zero) == 3);
    CHECK(run->model.kv_heads == 8);
    CHECK(run->model.seq_len == 4096);
  }
  // DeepSpeed measured 6.1% faster than FSDP1 at the same plan.
  CHECK(ds.measured.at("step_time_s") < fsdp.measured.at("step_time_s"));
}

TEST_CASE("NB runs: the errors at conversion, and the FSDP / ZeRO-3 pair not ranked backwards",
          "[validate][public]") {
  const std::vector<RunSpec> runs = NbRows();
  REQUIRE(runs.size() == 5);
  const ValidationReport report = test::ValidateRows(runs);
  INFO(StepTimeErrors(report));
  CHECK(report.all.errors == 0);
  CHECK(report.all.fits_fit == 5);
  const auto& step = report.all.metrics.at("step_time_s");
  CHECK(step.n == 5);
  CHECK(step.mape_pct <= kNbMapePct);
  for (const RunOutcome& outcome : report.runs) {
    INFO(outcome.id);
    CHECK(std::abs(outcome.error_pct.at("step_time_s")) <= kNbMaxAbsPct);
  }
  // Per token the three GPT-3 sizes cost more as they grow (0.76B, 1.3B, 2.7B parameters).
  const auto per_token = [&](const char* id) {
    return PredictedStep(runs, id) /
           static_cast<double>(FixedKnob(test::FindRow(runs, id).plan.global_batch));
  };
  CHECK(per_token("NB01") < per_token("NB02"));
  CHECK(per_token("NB02") < per_token("NB03"));
  // Measured, ZeRO-3 under DeepSpeed beat FSDP1 by 6.1%; paraplan prices the two alike (both 97%
  // compute on one NVLink node). It must not rank FSDP1 ahead by more than 1%.
  CHECK(PredictedStep(runs, "NB05") <= 1.01 * PredictedStep(runs, "NB04"));
}
