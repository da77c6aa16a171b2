#include "config/knob_values.h"

#include <catch2/catch.hpp>

#include "config/config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;
using testing::ErrorOf;

TEST_CASE("knob values: counts and numbers within their bounds", "[config]") {
  CHECK(ParseInt("8", 1) == 8);
  CHECK_THAT(ErrorOf([] { ParseInt("0", 1); }), Contains("must be >= 1, got 0"));
  CHECK_THAT(ErrorOf([] { ParseInt("4x", 1); }), Contains("expected an integer, got '4x'"));
  CHECK_THAT(ErrorOf([] { ParseInt("99999999999999999999999", 1); }),
             Contains("(paraplan's bound)"));
  CHECK(ParseNumber("1.5", 1.0, true) == 1.5);
  CHECK(ParseNumber("1", 1.0, true) == 1.0);
  CHECK_THAT(ErrorOf([] { ParseNumber("0", 0.0, false); }), Contains("must be > 0, got 0"));
  CHECK_THAT(ErrorOf([] { ParseNumber("nan", 0.0, true); }), Contains("expected a number"));
  CHECK_THAT(ErrorOf([] { ParseNumber("5", 0.0, true, 4.0); }), Contains("must be at most 4"));
}

TEST_CASE("knob values: switches, one value, placement, splits and recompute modules", "[config]") {
  CHECK(ParseBool("true"));
  CHECK_FALSE(ParseBool("false"));
  CHECK_THAT(ErrorOf([] { ParseBool("yes"); }), Contains("'yes' is not one of: true, false"));
  CHECK(OneValue({"a"}) == "a");
  CHECK_THAT(ErrorOf([] { OneValue({"a", "b"}); }), Contains("takes one value, not alternatives"));
  CHECK(Ints({"2", "4"}, 1) == std::vector<int64_t>{2, 4});
  CHECK(ParsePlacement("dp-tp-cp-ep-pp")[0] == ParallelDim::kDp);
  CHECK_THAT(ErrorOf([] { ParsePlacement("tp-tp-cp-ep-pp"); }),
             Contains("names a dimension twice"));
  CHECK_THAT(ErrorOf([] { ParsePlacement("tp-dp"); }), Contains("must order all of"));
  CHECK(ParseLayerSplit({"7/8*3/0"}) == std::vector<int64_t>{7, 8, 8, 8, 0});
  CHECK_THAT(ErrorOf([] { ParseLayerSplit({"4/4", "8"}); }), Contains("takes one split"));
  CHECK(ParseRecomputeModules("core_attn+mlp") ==
        (static_cast<uint32_t>(RecomputeModule::kCoreAttn) |
         static_cast<uint32_t>(RecomputeModule::kMlp)));
  CHECK_THAT(ErrorOf([] { ParseRecomputeModules("core_attn+gpu"); }), Contains("'gpu'"));
}

}  // namespace
}  // namespace paraplan
