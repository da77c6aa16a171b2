#include "calib/cross_validation.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <map>

#include "calib/cross_validation_report.h"
#include "cli/cli_runner.h"
#include "hardware/efficiency_transfer.h"
#include "synthetic_runs.h"
#include "validate/run_evaluation.h"

using namespace paraplan;

namespace {

RunSpec SourceRun(const std::string& id, const std::string& source, ModelSpec model, int64_t gpus,
                  int64_t tp, const std::string& gpu_name = "H100-SXM5-80GB") {
  return test::SyntheticRun(id, source, std::move(model), gpus, tp, 2 * gpus / tp, gpu_name);
}

EfficiencyFitOptions CvOptions(int threads) {
  EfficiencyFitOptions options;
  options.threads = threads;
  options.run.simulate_top = 1;
  options.lm_iterations = 10;
  return options;
}

// Three sources of H100 runs and one of an A100 run, measured as if the GPUs ran at `truth`.
std::vector<RunSpec> SyntheticRuns() {
  std::vector<RunSpec> runs = {
      SourceRun("T01", "Paper A, Table 1", test::SyntheticDense(8, 1024, 16), 8, 1),
      SourceRun("T02", "Paper A, Table 2", test::SyntheticDense(8, 2048, 16), 8, 2),
      SourceRun("T03", "Report B (2024)", test::SyntheticDense(12, 1536, 12), 8, 1),
      SourceRun("T04", "Report B (2025)", test::SyntheticDense(8, 4096, 32), 8, 4),
      SourceRun("T05", "Benchmark C", test::SyntheticDense(16, 2048, 16), 16, 2),
      SourceRun("T06", "Benchmark C", test::SyntheticDense(6, 3072, 24), 8, 4),
      SourceRun("T07", "A100 paper, Table 9", test::SyntheticDense(8, 2048, 16), 8, 2,
                "A100-SXM4-80GB"),
  };
  // Inside the fitted parameters' measured ranges (FittedParameters), away from the prior.
  Efficiency truth = PriorEfficiency("H100", {"nvlink", "scaleout"});
  truth.gemm_max = 0.68;
  truth.attention_bwd = 0.43;
  truth.kernel_launch_us = 8;
  RunEvaluationOptions evaluation;
  evaluation.simulate_top = 1;
  test::MeasureWith(runs, truth, evaluation);
  return runs;
}

double LeftOutError(const CrossValidationResult& cv, const std::string& id) {
  for (const auto& fold : cv.folds) {
    for (const auto& run : fold.report.runs) {
      if (run.id == id) return run.error_pct.at("step_time_s");
    }
  }
  FAIL("no left-out prediction for " << id);
  return 0;
}

}  // namespace

TEST_CASE("A run's source is its citation up to the first comma or parenthesis", "[validate]") {
  CHECK(SourceGroup("Narayanan et al., SC'21, 'Efficient ...', Table 1") == "Narayanan et al.");
  CHECK(SourceGroup("PyTorch torchtitan benchmark 'x.md' (Dec 2024), Table 1") ==
        "PyTorch torchtitan benchmark 'x.md'");
  CHECK(SourceGroup("  NVIDIA NeMo docs (24.07)") == "NVIDIA NeMo docs");
  CHECK(SourceGroup("Benchmark C") == "Benchmark C");
  CHECK(SourceGroup("") == "(no source)");
  CHECK(SourceGroup("(internal), run 3") == "(no source)");
}

TEST_CASE("Leave-one-source-out never fits a source's runs into its own prediction", "[validate]") {
  std::vector<RunSpec> runs = SyntheticRuns();
  const CrossValidationResult cv = CrossValidateBySource(runs, CvOptions(2));
  REQUIRE(cv.folds.size() == 4);
  CHECK(cv.folds[0].source == "Paper A");
  CHECK(cv.folds[1].source == "Report B");
  CHECK(cv.folds[2].source == "Benchmark C");
  CHECK(cv.folds[3].source == "A100 paper");
  for (const auto& fold : cv.folds) {
    for (const auto& run : fold.report.runs) {
      INFO(fold.source << " " << run.id);
      CHECK(std::find(fold.fitted_ids.begin(), fold.fitted_ids.end(), run.id) ==
            fold.fitted_ids.end());
    }
  }
  CHECK(cv.folds[0].fitted_ids == std::vector<std::string>{"T03", "T04", "T05", "T06", "T07"});
  CHECK(cv.overall.n == 7);
  // The A100 source is the only A100 one: it is predicted with the A100 prior, untouched by any
  // fit, and every H100 fold predicts from H100 runs of the other sources.
  CHECK(cv.folds[3].prior_families == std::vector<std::string>{"A100"});
  CHECK(cv.folds[0].prior_families.empty());
  // The H100 measurements come from one efficiency: a fit on the other sources predicts a
  // source far better than the prior does.
  std::vector<double> prior_errors;
  for (const RunSpec* run : {&runs[2], &runs[3]}) {  // source "Report B"
    RunSpec with_prior = *run;
    with_prior.cluster.efficiency = PriorEfficiency("H100", {"nvlink", "scaleout"});
    prior_errors.push_back(EvaluateRun(with_prior, CvOptions(1).run).error_pct.at("step_time_s"));
  }
  const double prior_mape = Summarize(prior_errors).mape_pct;
  CHECK(prior_mape > 10.0);
  CHECK(cv.folds[1].step_time.mape_pct < 0.5 * prior_mape);

  SECTION("a left-out run's own measurement never moves its prediction") {
    std::vector<RunSpec> changed = runs;
    changed[2].measured["step_time_s"] *= 3.0;  // T03, source "Report B"
    const CrossValidationResult again = CrossValidateBySource(changed, CvOptions(2));
    const double before = cv.folds[1].report.runs[0].predicted.at("step_time_s");
    const double after = again.folds[1].report.runs[0].predicted.at("step_time_s");
    CHECK(after == before);
    CHECK(LeftOutError(again, "T03") != LeftOutError(cv, "T03"));
    // ...while every other source's fold, which fits T03, sees the change.
    const double other_before = cv.folds[0].report.runs[0].predicted.at("step_time_s");
    const double other_after = again.folds[0].report.runs[0].predicted.at("step_time_s");
    CHECK(other_after != other_before);
  }
  SECTION("the result does not depend on the thread count") {
    const CrossValidationResult one = CrossValidateBySource(runs, CvOptions(1));
    CHECK(CrossValidationJson(one).Dump(-1) == CrossValidationJson(cv).Dump(-1));
  }
}

TEST_CASE("validate --cv source reports every source left out, in JSON and as a table",
          "[validate][cli]") {
  const std::string file = PARAPLAN_SOURCE_DIR "/tests/validate/data/cv_runs.yaml";
  const auto json = testing::RunParaplan({"validate", file, "--cv", "source", "--format", "json",
                                          "--threads", "2", "--simulate-top", "1"});
  INFO(json.err);
  REQUIRE(json.code == 0);
  CHECK(json.out.find("\"summary\": {") != std::string::npos);  // DESIGN.md's names stay
  CHECK(json.out.find("\"cv\": {\n    \"by\": \"source\"") != std::string::npos);
  CHECK(json.out.find("\"source\": \"Paper A\"") != std::string::npos);
  CHECK(json.out.find("\"source\": \"Report B\"") != std::string::npos);
  CHECK(json.out.find("\"fitted_ids\": [\n          \"C03\",\n          \"C04\"\n        ]") !=
        std::string::npos);
  // The ranking figure, in-sample beside "summary" and over the held-out predictions in "cv"
  // (validate/plan_ranking.h; no job here has two runs, so both are empty).
  const size_t in_sample = json.out.find("\"source_mean_agreement\"");
  REQUIRE(in_sample != std::string::npos);
  CHECK(json.out.find("\"source_mean_agreement\"", in_sample + 1) != std::string::npos);
  const auto one_thread = testing::RunParaplan({"validate", file, "--cv", "source", "--format",
                                                "json", "--threads", "1", "--simulate-top", "1"});
  CHECK(one_thread.out == json.out);

  const auto table =
      testing::RunParaplan({"validate", file, "--cv", "source", "--simulate-top", "1"});
  CHECK(table.code == 0);
  CHECK(table.out.find("Leave-one-source-out") != std::string::npos);
  CHECK(table.out.find("all sources, pooled") != std::string::npos);

  const auto plain = testing::RunParaplan({"validate", file, "--simulate-top", "1"});
  CHECK(plain.out.find("Leave-one-source-out") == std::string::npos);
}

TEST_CASE("validate --cv rejects what it cannot do, naming the flag", "[validate][cli]") {
  const std::string file = PARAPLAN_SOURCE_DIR "/tests/validate/data/cv_runs.yaml";
  const auto bad = testing::RunParaplan({"validate", file, "--cv", "region"});
  CHECK(bad.code == 2);
  CHECK(bad.err.find("--cv") != std::string::npos);
  CHECK(bad.err.find("source, gpu, framework or scale") != std::string::npos);
  CHECK(bad.err.find("'region'") != std::string::npos);
  const auto twice = testing::RunParaplan({"validate", file, "--cv", "gpu,gpu"});
  CHECK(twice.code == 2);
  CHECK(twice.err.find("listed twice") != std::string::npos);
}

TEST_CASE("validate --cv with several groupings leads with their pooled figures",
          "[validate][cli]") {
  const std::string file = PARAPLAN_SOURCE_DIR "/tests/validate/data/cv_runs.yaml";
  const auto table = testing::RunParaplan(
      {"validate", file, "--cv", "source,gpu,framework,scale", "--simulate-top", "1"});
  INFO(table.err);
  REQUIRE(table.code == 0);
  CHECK(table.out.find("Leave-one-source-out") != std::string::npos);
  CHECK(table.out.find("Leave-one-GPU-family-out") != std::string::npos);
  CHECK(table.out.find("Leave-one-framework-out") != std::string::npos);
  CHECK(table.out.find("Scale extrapolation") != std::string::npos);
  CHECK(table.out.find("Cross-validation summary") != std::string::npos);
  CHECK(table.out.find("--cv framework") != std::string::npos);
  const auto json = testing::RunParaplan(
      {"validate", file, "--cv", "gpu,scale", "--format", "json", "--simulate-top", "1"});
  REQUIRE(json.code == 0);
  CHECK(json.out.find("\"cv\": {\n    \"by\": \"gpu\"") != std::string::npos);
  CHECK(json.out.find("\"by\": \"scale\"") != std::string::npos);
  CHECK(json.out.find("\"models\": [") != std::string::npos);
}

TEST_CASE("Leave-one-GPU-family-out predicts a family as a GPU nobody fitted", "[validate]") {
  const std::vector<RunSpec> runs = SyntheticRuns();
  const CrossValidationResult cv = CrossValidate(runs, CvOptions(2), CvGrouping::kGpu);
  CHECK(cv.by == CvGrouping::kGpu);
  REQUIRE(cv.folds.size() == 2);
  CHECK(cv.folds[0].source == "Hopper");
  CHECK(cv.folds[1].source == "Ampere");
  CHECK(cv.folds[0].fitted_ids == std::vector<std::string>{"T07"});
  CHECK(cv.folds[1].fitted_ids ==
        std::vector<std::string>{"T01", "T02", "T03", "T04", "T05", "T06"});
  // Each family takes the transfer from the other's fit, never its own prior.
  CHECK(cv.folds[0].transferred_from == std::map<std::string, std::string>{{"H100", "A100"}});
  CHECK(cv.folds[1].transferred_from == std::map<std::string, std::string>{{"A100", "H100"}});
  REQUIRE(cv.folds[0].models.size() == 1);
  CHECK(cv.folds[0].models[0].model == "H100");
  CHECK(cv.folds[0].models[0].step_time.n == 6);
  // The Ampere run's prediction is exactly the one with the transferred H100 fit.
  REQUIRE(cv.folds[1].families.size() == 1);
  RunSpec a100 = runs[6];
  a100.cluster.efficiency =
      TransferEfficiency(cv.folds[1].families[0].fitted, "H100", runs[0].cluster.gpu,
                         a100.cluster.gpu, {"nvlink", "scaleout"})
          .efficiency;
  const RunOutcome direct = EvaluateRun(a100, CvOptions(1).run);
  CHECK(cv.folds[1].report.runs[0].predicted.at("step_time_s") ==
        Approx(direct.predicted.at("step_time_s")).epsilon(1e-12));
  REQUIRE(cv.Worst() != nullptr);
  CHECK(cv.Worst()->step_time.mape_pct ==
        std::max(cv.folds[0].step_time.mape_pct, cv.folds[1].step_time.mape_pct));
  SECTION("the result does not depend on the thread count") {
    const CrossValidationResult one = CrossValidate(runs, CvOptions(1), CvGrouping::kGpu);
    CHECK(CrossValidationJson(one).Dump(-1) == CrossValidationJson(cv).Dump(-1));
  }
}

TEST_CASE("Leave-one-framework-out and scale extrapolation group the runs they say", "[validate]") {
  std::vector<RunSpec> runs = SyntheticRuns();
  runs[0].framework = Framework::kDeepSpeed;  // T01
  runs[1].framework = Framework::kDeepSpeed;  // T02
  runs[2].framework = Framework::kNemo;       // T03: NeMo runs Megatron-Core: the megatron group
  const CrossValidationResult by_framework =
      CrossValidate(runs, CvOptions(2), CvGrouping::kFramework);
  REQUIRE(by_framework.folds.size() == 3);
  CHECK(by_framework.folds[0].source == "deepspeed");
  CHECK(by_framework.folds[1].source == "megatron");
  CHECK(by_framework.folds[2].source == "unstated");
  CHECK(by_framework.folds[0].fitted_ids ==
        std::vector<std::string>{"T03", "T04", "T05", "T06", "T07"});
  CHECK(by_framework.overall.n == 7);

  CHECK(CvGroup(runs[0], CvGrouping::kScale).empty());
  RunSpec big = runs[0];
  big.gpus = 2048;
  CHECK(CvGroup(big, CvGrouping::kScale) == "> 1024 GPUs");
  runs[4].gpus = 1025;  // T05 as if above the line: only its group is predicted
  CHECK(CvGroup(runs[4], CvGrouping::kScale) == "> 1024 GPUs");
}

TEST_CASE("Evaluation-only runs are in no fold and no fit, and are predicted by a fit on the rest",
          "[validate]") {
  std::vector<RunSpec> runs = SyntheticRuns();
  runs[4].evaluation_only = true;  // T05, one of source "Benchmark C"'s two runs
  runs[4].source = "Reserved archive, Table 1";
  const CrossValidationResult cv = CrossValidateBySource(runs, CvOptions(2));
  REQUIRE(cv.folds.size() == 4);  // the reserved source is no fold
  for (const auto& fold : cv.folds) {
    INFO(fold.source);
    CHECK(std::find(fold.fitted_ids.begin(), fold.fitted_ids.end(), "T05") ==
          fold.fitted_ids.end());
    for (const auto& run : fold.report.runs) CHECK(run.id != "T05");
  }
  CHECK(cv.overall.n == 6);
  REQUIRE(cv.evaluation.has_value());
  CHECK(cv.evaluation->source == kEvaluationSource);
  REQUIRE(cv.evaluation->report.runs.size() == 1);
  CHECK(cv.evaluation->report.runs[0].id == "T05");
  CHECK(cv.evaluation->report.runs[0].evaluation_only);
  CHECK(cv.evaluation->fitted_ids ==
        std::vector<std::string>{"T01", "T02", "T03", "T04", "T06", "T07"});
  CHECK(cv.evaluation->step_time.n == 1);

  SECTION("its measurement moves no fit") {
    std::vector<RunSpec> changed = runs;
    changed[4].measured["step_time_s"] *= 3.0;
    const CrossValidationResult again = CrossValidateBySource(changed, CvOptions(2));
    CHECK(CrossValidationJson(again).Dump(-1) != CrossValidationJson(cv).Dump(-1));
    for (size_t f = 0; f < cv.folds.size(); ++f) {
      CHECK(again.folds[f].report.runs[0].predicted.at("step_time_s") ==
            cv.folds[f].report.runs[0].predicted.at("step_time_s"));
    }
    CHECK(again.evaluation->report.runs[0].predicted.at("step_time_s") ==
          cv.evaluation->report.runs[0].predicted.at("step_time_s"));
    const EfficiencyFitResult fit = FitEfficiencies(runs, CvOptions(2));
    const EfficiencyFitResult fit_changed = FitEfficiencies(changed, CvOptions(2));
    CHECK(fit.evaluation_only_ids == std::vector<std::string>{"T05"});
    REQUIRE(fit.defaults.count("H100") == 1);
    CHECK(GetEfficiencyValue(fit.defaults.at("H100"), "gemm_max") ==
          GetEfficiencyValue(fit_changed.defaults.at("H100"), "gemm_max"));
    for (const auto& family : fit.families) {
      CHECK(std::find(family.fitted_ids.begin(), family.fitted_ids.end(), "T05") ==
            family.fitted_ids.end());
      CHECK(std::find(family.held_out_ids.begin(), family.held_out_ids.end(), "T05") ==
            family.held_out_ids.end());
    }
  }
}

TEST_CASE("A fold refits only the families its left-out runs change, the cache changes nothing",
          "[validate]") {
  const std::vector<RunSpec> runs = SyntheticRuns();
  const CrossValidationResult fresh = CrossValidateBySource(runs, CvOptions(2));
  EfficiencyFitOptions options = CvOptions(2);
  options.cache = std::make_shared<FamilyFitCache>();
  const CrossValidationResult by_gpu = CrossValidate(runs, options, CvGrouping::kGpu);
  const CrossValidationResult shared = CrossValidate(runs, options, CvGrouping::kSource);
  CHECK(CrossValidationJson(shared).Dump(-1) == CrossValidationJson(fresh).Dump(-1));
  CHECK(CrossValidationJson(by_gpu).Dump(-1) ==
        CrossValidationJson(CrossValidate(runs, CvOptions(1), CvGrouping::kGpu)).Dump(-1));
  // Distinct family fits: by GPU, H100 whole and A100 whole; by source, H100 without each of its
  // three sources ("Report B" is one); the A100 paper's fold takes H100 whole from the cache, and
  // the H100 folds A100 whole.
  CHECK(options.cache->fits.size() == 2 + 3);
}

TEST_CASE("An evaluation-only run on a GPU nobody fitted takes what plan gives that GPU",
          "[validate]") {
  std::vector<RunSpec> runs = SyntheticRuns();
  runs[6].evaluation_only = true;  // T07, the only A100 run: A100 is fitted nowhere
  for (CvGrouping by : {CvGrouping::kSource, CvGrouping::kFramework}) {
    INFO(ToString(by));
    const CrossValidationResult cv = CrossValidate(runs, CvOptions(2), by);
    REQUIRE(cv.evaluation.has_value());
    CHECK(cv.evaluation->transferred_from == std::map<std::string, std::string>{{"A100", "H100"}});
    // Exactly the H100 fit transferred to the A100, never A100's prior.
    REQUIRE(cv.evaluation->families.size() == 1);
    RunSpec a100 = runs[6];
    a100.cluster.efficiency =
        TransferEfficiency(cv.evaluation->families[0].fitted, "H100", runs[0].cluster.gpu,
                           a100.cluster.gpu, {"nvlink", "scaleout"})
            .efficiency;
    const double transferred = EvaluateRun(a100, CvOptions(1).run).predicted.at("step_time_s");
    a100.cluster.efficiency = PriorEfficiency("A100", {"nvlink", "scaleout"});
    const double prior = EvaluateRun(a100, CvOptions(1).run).predicted.at("step_time_s");
    REQUIRE(cv.evaluation->report.runs.size() == 1);
    const double predicted = cv.evaluation->report.runs[0].predicted.at("step_time_s");
    CHECK(predicted == Approx(transferred).epsilon(1e-12));
    CHECK(predicted != Approx(prior).epsilon(1e-6));
    CHECK(CrossValidationJson(cv).Dump(-1).find("\"transferred_from\":\"H100\"") !=
          std::string::npos);
  }
}

TEST_CASE("validate --cv with a second file predicts its evaluation-only runs, never fitting them",
          "[validate][cli]") {
  const std::string file = PARAPLAN_SOURCE_DIR "/tests/validate/data/cv_runs.yaml";
  const std::string reserved = PARAPLAN_SOURCE_DIR "/tests/validate/data/cv_reserved.yaml";
  const auto md = testing::RunParaplan({"validate", file, reserved, "--cv", "source", "--format",
                                        "markdown", "--threads", "2", "--simulate-top", "1"});
  INFO(md.err);
  REQUIRE(md.code == 0);
  CHECK(md.out.find("## Independent evaluation (never fitted)") != std::string::npos);
  CHECK(md.out.find("| R01^ |") != std::string::npos);  // its file's runs table marks it
  CHECK(md.out.find("evaluation only (^, never fitted)") != std::string::npos);
  CHECK(md.out.find("| Reserved archive | 1 |") == std::string::npos);  // no fold of its own
  CHECK(md.out.find("without Reserved archive") == std::string::npos);
  const auto table = testing::RunParaplan(
      {"validate", file, reserved, "--cv", "source", "--threads", "2", "--simulate-top", "1"});
  CHECK(table.code == 0);
  CHECK(table.out.find("Independent evaluation") != std::string::npos);
  // Alone, the reserved file is validated with the shipped efficiencies; --cv has no fold.
  const auto alone = testing::RunParaplan(
      {"validate", reserved, "--cv", "source", "--format", "json", "--simulate-top", "1"});
  REQUIRE(alone.code == 0);
  CHECK(alone.out.find("\"folds\": []") != std::string::npos);
  CHECK(alone.out.find("\"evaluation\": {") != std::string::npos);
  CHECK(alone.out.find("\"evaluation_only\": true") != std::string::npos);
}
