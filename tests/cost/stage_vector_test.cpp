#include "cost/stage_vector.h"

#include <catch2/catch.hpp>

#include "cost/pipeline_time.h"

using namespace paraplan;

TEST_CASE("StageVector value-initialises what Resize asks for, inline or on the heap", "[cost]") {
  for (int64_t n : {int64_t{1}, int64_t{16}, kInlineStages, kInlineStages + 1, int64_t{300}}) {
    StageVector<StageTimes> v;
    v.Resize(n);
    REQUIRE(v.size() == n);
    bool zero = true;
    for (int64_t i = 0; i < n; ++i) zero = zero && v[i].f == 0 && v[i].b == 0 && v[i].w == 0;
    CHECK(zero);
    v[n - 1].f = 2.5;
    CHECK(v.data()[n - 1].f == 2.5);
    v.Resize(n);  // resizing again clears
    CHECK(v[n - 1].f == 0);
  }
}
