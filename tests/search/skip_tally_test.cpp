#include "search/skip_tally.h"

#include <catch2/catch.hpp>

namespace paraplan {
namespace {

TEST_CASE("RuleKey generalises numbers but keeps words like fp8", "[search]") {
  CHECK(RuleKey("tp=3 does not divide heads=64") == "tp=N does not divide heads=N");
  CHECK(RuleKey("precision=fp8 needs a GPU with fp8; got 1.5") ==
        "precision=fp8 needs a GPU with fp8; got N");
}

TEST_CASE("SkipTally counts by rule, most frequent first, and merges", "[search]") {
  SkipTally a, b;
  a.Add("tp=3 does not divide heads=64");
  a.Add("tp=5 does not divide heads=64");
  b.Add("schedule=dualpipe needs an even number of micro-batches, got 15");
  b.Add("tp=6 does not divide heads=64");
  a.Merge(b);
  CHECK(a.Total() == 4);
  const auto sorted = a.Sorted();
  REQUIRE(sorted.size() == 2);
  CHECK(sorted[0].rule == "tp=N does not divide heads=N");
  CHECK(sorted[0].count == 3);
  CHECK(sorted[1].count == 1);
}

}  // namespace
}  // namespace paraplan
