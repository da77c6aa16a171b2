// The ranking broken down by the one knob two plans differ in, on hand-built groups.
#include "validate/ranking_by_knob.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

using namespace paraplan;

namespace {

RankedRun KnobRun(const std::string& id, double measured, double predicted, const std::string& tp,
                  const std::string& dp, const std::string& zero) {
  return {id, measured, predicted, {{"tp", tp}, {"pp", "1"}, {"dp", dp}, {"zero", zero}}};
}

}  // namespace

TEST_CASE("RankingByKnob attributes a pair to the one knob its plans differ in",
          "[validate][ranking]") {
  RankingReport report;
  RankingGroup g;
  g.source = "Paper A";
  // a -> b: tp 4 -> 8 (dp follows), measured x1.2, predicted x1.1: ratio error 1.1/1.2 - 1.
  // a -> c: zero 0 -> 1, measured x0.9, predicted x0.9. b -> c: two knobs, no attribution.
  g.runs = {KnobRun("a", 1.0, 1.0, "4", "2", "0"), KnobRun("b", 1.2, 1.1, "8", "1", "0"),
            KnobRun("c", 0.9, 0.9, "4", "2", "1")};
  // A second job: tp 8 -> 4 in file order (the change is still read from 4 to 8), reversed.
  RankingGroup h;
  h.source = "Paper B";
  h.runs = {KnobRun("d", 2.0, 2.0, "8", "1", "0"), KnobRun("e", 1.5, 2.2, "4", "2", "0")};
  report.groups = {g, h};
  const std::vector<KnobChange> changes = RankingByKnob(report);
  REQUIRE(changes.size() == 2);
  const KnobChange& tp = changes[0];
  CHECK(tp.knob == "tp");
  CHECK(tp.from == "4");
  CHECK(tp.to == "8");
  CHECK(tp.pairs == 2);
  CHECK(tp.ordered == 2);
  CHECK(tp.concordant == 1);  // a before b; e before d is reversed by the prediction
  CHECK(tp.Agreement() == Approx(0.5));
  // Geometric mean of (1.1 / 1.2) and ((2.0 / 2.2) / (2.0 / 1.5)).
  const double expected = std::sqrt((1.1 / 1.2) * ((2.0 / 2.2) / (2.0 / 1.5))) - 1.0;
  CHECK(tp.ratio_error_pct == Approx(expected * 100.0));
  CHECK(tp.sources == std::vector<std::string>{"Paper A", "Paper B"});
  const KnobChange& zero = changes[1];
  CHECK(zero.knob == "zero");
  CHECK(zero.pairs == 1);
  CHECK(zero.ordered == 1);
  CHECK(zero.concordant == 1);
  CHECK(zero.ratio_error_pct == Approx(0.0).margin(1e-9));
}

TEST_CASE("RankingByKnob orders values as numbers and ignores pipeline layout keys with pp",
          "[validate][ranking]") {
  RankingReport report;
  RankingGroup g;
  g.source = "Paper A";
  g.runs = {{"a", 1.0, 1.0, {{"pp", "16"}, {"pp_layers", "2/2"}, {"micro_batch", "1"}}},
            {"b", 1.5, 1.2, {{"pp", "2"}, {"pp_layers", "16/16"}, {"micro_batch", "1"}}}};
  report.groups = {g};
  const std::vector<KnobChange> changes = RankingByKnob(report);
  REQUIRE(changes.size() == 1);
  CHECK(changes[0].knob == "pp");
  CHECK(changes[0].from == "2");
  CHECK(changes[0].to == "16");
  // From pp 2 (b) to pp 16 (a): measured x(1/1.5), predicted x(1/1.2).
  CHECK(changes[0].ratio_error_pct == Approx((1.5 / 1.2 - 1.0) * 100.0));
}
