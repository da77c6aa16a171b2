#include "cli/progress_bar.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string>

namespace paraplan {
namespace {

std::string Contents(std::FILE* f) {
  std::rewind(f);
  std::string text;
  for (int c = std::fgetc(f); c != EOF; c = std::fgetc(f)) text += static_cast<char>(c);
  return text;
}

TEST_CASE("the progress line shows the share, the total, the unit and an ETA", "[cli]") {
  CHECK(ProgressLine(0.3, 1000, "plans", 3.0) ==
        "[#########.....................]  30 % of 1,000 plans, ETA 7 s");
  CHECK(ProgressLine(1.0, 1000, "plans", 3.0) ==
        "[##############################] 100 % of 1,000 plans");
  CHECK_THAT(ProgressLine(0.01, 100, "plans", 60.0), Catch::EndsWith("ETA 1 h 39 min"));
  CHECK(ProgressLine(0.5, 12, "points", 10.0) ==
        "[###############...............]  50 % of 12 points, ETA 10 s");
  CHECK_THAT(ProgressLine(0.25, 4, "GPU counts", 30.0),
             Catch::EndsWith("25 % of 4 GPU counts, ETA 1 min 30 s"));
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

TEST_CASE("an enabled bar draws once per percent after its delay and erases itself", "[cli]") {
  std::FILE* f = std::tmpfile();
  REQUIRE(f != nullptr);
  {
    ProgressBar bar(f, true, "source folds", 0.0);
    bar.Update(1, 4);
    bar.Update(1, 4);  // the same percent: not redrawn
    bar.UpdateShare(0.5, 4);
  }
  const std::string text = Contents(f);
  CHECK_THAT(text, Catch::Contains("25 % of 4 source folds, ETA"));
  CHECK_THAT(text, Catch::Contains("50 % of 4 source folds, ETA"));
  CHECK_THAT(text, Catch::EndsWith("\r\033[K"));
  std::fclose(f);
  std::FILE* g = std::tmpfile();
  REQUIRE(g != nullptr);
  {
    ProgressBar bar(g, true, "plans", 3600.0);  // not yet due
    bar.Update(1, 4);
  }
  CHECK(std::ftell(g) == 0);
  std::fclose(g);
}

}  // namespace
}  // namespace paraplan
