#include "cli/progress_bar.h"

#include <catch2/catch.hpp>
#include <cstdio>

namespace paraplan {
namespace {

TEST_CASE("the progress line shows the share, the total and an ETA", "[cli]") {
  CHECK(ProgressLine(300, 1000, 3.0) ==
        "[#########.....................]  30 % of 1,000 plans, ETA 7 s");
  CHECK(ProgressLine(1000, 1000, 3.0) == "[##############################] 100 % of 1,000 plans");
  CHECK_THAT(ProgressLine(1, 100, 60.0), Catch::EndsWith("ETA 1 h 39 min"));
}

TEST_CASE("a disabled bar writes nothing", "[cli]") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  {
    ProgressBar bar(f, false);
    bar.Update(5, 10);
  }
  CHECK(std::ftell(f) == 0);
  std::fclose(f);
}

}  // namespace
}  // namespace paraplan
