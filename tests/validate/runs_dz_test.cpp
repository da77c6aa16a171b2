// DZ01 of docs/validation/public_runs.yaml (stop 42, branch h44ds; docs/validation/README.md,
// "DZ01"): DeepSpeed's bf16_master_weight example, ZeRO-3 on one node of 4 H100 at 512 tokens per
// GPU. The row states the plan its README and config give; the memory model meets the measured
// peak (torch.cuda.max_memory_allocated, 31.38 GiB), and the step, far faster predicted than
// measured (the small-batch ZeRO-3 gap; docs/validation/lessons.md, stop 42 h44ds), stays within
// the error measured at conversion. Tighten, never loosen silently.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "validate/public_rows.h"
#include "validate/validation_report.h"

using namespace paraplan;

namespace {

// `paraplan validate` on DZ01 with the shipped hardware/efficiency.yaml at conversion (stop 41's
// refit): step 0.157 s against 0.6016 s (-73.9%), memory 31.39 GiB against 31.38 (+0.04%).
constexpr double kStepErrorPct = 73.9 + 0.5;
constexpr double kMemoryErrorPct = 0.04 + 1.0;

}  // namespace

TEST_CASE("DZ01: DeepSpeed ZeRO-3 on 4 H100 in one node, plan as stated, memory as measured",
          "[validate][public]") {
  const std::vector<RunSpec> runs = test::PublicRowsWithPrefix('D');
  const RunSpec& run = test::FindRow(runs, "DZ01");
  CHECK(run.framework == Framework::kDeepSpeed);
  CHECK(run.gpus == 4);
  CHECK(test::FixedKnob(run.plan.zero) == 3);
  CHECK(test::FixedKnob(run.plan.dp) == 4);
  CHECK(test::FixedKnob(run.plan.micro_batch) == 1);
  CHECK(run.model.layers == 32);
  CHECK(run.model.hidden == 4096);
  CHECK(run.model.vocab == 50257);
  CHECK(!run.model.tied_embeddings);

  ValidationOptions options;
  options.threads = 1;
  options.holdout_every = 0;
  options.run.simulate_top = 1;
  const ValidationReport report = ValidateRuns({run}, options);
  REQUIRE(report.runs.size() == 1);
  const RunOutcome& outcome = report.runs[0];
  INFO(outcome.message);
  REQUIRE(outcome.status == RunStatus::kOk);
  CHECK(outcome.fits);
  // Predicted faster than measured (the gap the row documents), by no more than at conversion.
  const double step_err = outcome.error_pct.at("step_time_s");
  CHECK(step_err < 0);
  CHECK(-step_err <= kStepErrorPct);
  const double memory_err = outcome.error_pct.at("memory_GiB");
  CHECK(std::abs(memory_err) <= kMemoryErrorPct);
}
