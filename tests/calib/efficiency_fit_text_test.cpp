#include "calib/efficiency_fit_text.h"

#include <catch2/catch.hpp>

using Catch::Matchers::Contains;

namespace paraplan {
namespace {

TEST_CASE("the efficiency-fit section lists runs, errors and every parameter", "[calib]") {
  FamilyFit f;
  f.family = "H100";
  f.fitted_ids = {"E01", "E02"};
  f.held_out_ids = {"E04"};
  f.parameters = {{"gemm_max", 0.3, 0.95, 0.1}};
  SetEfficiencyValue(f.prior, "gemm_max", 0.8);
  SetEfficiencyValue(f.fitted, "gemm_max", 0.625);
  f.fitted_before.n = 2;
  f.fitted_before.mape_pct = 20.0;
  f.fitted_after.n = 2;
  f.fitted_after.mape_pct = 5.0;
  f.outer_iterations = 2;
  f.lm_iterations = 7;
  EfficiencyFitResult fit;
  fit.families.push_back(f);
  fit.derived_from["H200"] = "H100";
  const std::string md = EfficiencyFitMarkdown(fit, "runs.yaml");
  CHECK_THAT(md, Contains("Fitted on `runs.yaml`."));
  CHECK_THAT(md, Contains("| H100 | E01 E02 | E04 | 20.0% → 5.0% | - → - | 2 / 7 |"));
  CHECK_THAT(md, Contains("| gemm_max | 0.800 | 0.625 | 0.30 – 0.95 |"));
  CHECK_THAT(md, Contains("- H200: no public runs; takes the H100 fit."));
}

}  // namespace
}  // namespace paraplan
