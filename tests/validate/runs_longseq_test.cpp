// The C rows of docs/validation/public_runs.yaml (stop 40; README.md beside it, "C01-C17"):
// NeMo's long-sequence tables (docs/source/performance/performance_long_sequence.md), Llama 2 7B
// FP8 on DGX H100 (NeMo 24.03.01, C01-C09) and Llama 3 8B FP8 on DGX B200 (NeMo 25.04.rc2,
// C10-C17), context parallelism 1-32 at 4K-1M tokens. The tables print TFLOPS per GPU; the rows
// carry the step NeMo's own model-FLOPs formula gives, and state only the printed parallel sizes
// and batch. The set-wide error bounds stay with the public-runs tests.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "bound_margin.h"
#include "validate/public_rows.h"
#include "validate/run_errors.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

using test::FixedKnob;

// The printed "TFLOPS / GPU" (the With CP column; the B200 table as 14d427f575 prints it).
const std::map<std::string, double> kPrintedTflops = {
    {"C01", 768},  {"C02", 730},  {"C03", 660},  {"C04", 610},  {"C05", 574},  {"C06", 555},
    {"C07", 549},  {"C08", 549},  {"C09", 536},  {"C10", 1671}, {"C11", 1717}, {"C12", 1624},
    {"C13", 1600}, {"C14", 1588}, {"C15", 1590}, {"C16", 1619}, {"C17", 1608}};

// NeMo's model FLOPs per token for the llama2/llama3 families (nemo/utils/flops_formulas.py):
// l h^2 (12 + 12 g/a + 18 ffn/h + 12 s/h + 6 V/(l h)), attention counted non-causal.
double NemoLlamaFlopsPerToken(const ModelSpec& m, double seq) {
  const double l = static_cast<double>(m.layers), h = static_cast<double>(m.hidden);
  const double ratio_kv = static_cast<double>(m.kv_heads) / static_cast<double>(m.heads);
  return l * h * h *
         (12 + 12 * ratio_kv + 18 * static_cast<double>(m.ffn_hidden) / h + 12 * seq / h +
          6 * static_cast<double>(m.vocab) / (l * h));
}

// Measured when the rows joined (`paraplan validate docs/validation/public_runs.yaml`, the shipped
// efficiencies of stop 39): H100 -2.9 -5.8 -13.5 -21.4 -26.8 -30.8 -32.4 -32.1 -34.2, B200 -4.8
// -3.9 -9.7 -11.5 -13.2 -14.8 -14.2 -15.2 (%): 16.9%.
using test::kMarginPct;
constexpr double kCMapePct = 16.9 + kMarginPct;

}  // namespace

TEST_CASE("C runs: NeMo long-sequence rows state the printed plan, step from NeMo's FLOPs",
          "[validate][public]") {
  const std::vector<RunSpec> runs = test::PublicRowsWithPrefix('C');
  REQUIRE(runs.size() == 17);
  std::set<std::string> gpus_names;
  for (const RunSpec& run : runs) {
    INFO(run.id);
    CHECK(run.framework == Framework::kNemo);
    const bool b200 = run.id >= "C10";
    // NeMo 24.03.01 (H100): the launcher config of that tag fills what the page leaves out;
    // NeMo 25.04.rc2 (B200): the recipes profile, the newest.
    CHECK(run.framework_version == (b200 ? "" : "24.03"));
    CHECK(run.cluster.gpu.name == (b200 ? "B200-SXM-180GB" : "H100-SXM5-80GB"));
    const int64_t tp = FixedKnob(run.plan.tp), pp = FixedKnob(run.plan.pp),
                  dp = FixedKnob(run.plan.dp), cp = FixedKnob(run.plan.cp);
    CHECK(tp * pp * dp * cp == run.gpus);          // every printed row multiplies out
    CHECK(FixedKnob(run.plan.micro_batch) == -1);  // not stated: searched
    CHECK(FixedKnob(run.plan.recompute) == -1);
    const double seq = static_cast<double>(b200 ? FixedKnob(run.plan.seq_len)
                                                : static_cast<int64_t>(run.model.seq_len));
    const double batch = static_cast<double>(FixedKnob(run.plan.global_batch));
    CHECK(batch * seq == 4194304.0);  // 4M tokens per step in both tables
    const double step = run.measured.at("step_time_s");
    // tokens/s/GPU and the step agree; the step is the printed TFLOPS through NeMo's formula.
    // (the step is written to the millisecond, tokens/s/GPU to 0.1)
    CHECK(std::abs(batch * seq / step / static_cast<double>(run.gpus) /
                       run.measured.at("tokens_per_s_per_gpu") -
                   1.0) < 1e-4);
    const double converted = batch * seq * NemoLlamaFlopsPerToken(run.model, seq) /
                             (kPrintedTflops.at(run.id) * 1e12 * static_cast<double>(run.gpus));
    CHECK(std::abs(converted / step - 1.0) < 1e-4);
  }
}

TEST_CASE("C runs: predicted with the shipped efficiencies, all fast, worse as attention grows",
          "[validate][public]") {
  const std::vector<RunSpec> runs = test::PublicRowsWithPrefix('C');
  const ValidationReport report = test::ValidateRows(runs);
  INFO(StepTimeErrors(report));
  CHECK(report.all.errors == 0);
  const auto& step = report.all.metrics.at("step_time_s");
  CHECK(step.n == 17);
  CHECK(step.mape_pct <= kCMapePct);
  std::map<std::string, double> error;
  for (const auto& run : report.runs) {
    INFO(run.id << ": " << run.message);
    CHECK(run.fits);
    error[run.id] = run.error_pct.at("step_time_s");
    CHECK(error[run.id] < 0);  // every row predicted faster than measured (README.md, "C01-C17")
  }
  // The fast bias grows with the attention share: 1M tokens against the shortest sequence of
  // each table (H100: 4K, 14% of the FLOPs in attention -> 1M, 98%; B200: 8K -> 1M).
  CHECK(error.at("C09") < error.at("C01") - 20.0);
  CHECK(error.at("C17") < error.at("C10") - 5.0);
}
