// `explain` on a plan that does not fit: the nearest plan that fits, structured advice, and no
// suggestion that needs more memory.
#include <catch2/catch.hpp>
#include <string>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

const std::vector<std::string> kTooBig = {
    "explain", "-m",       "llama3-70b",
    "-c",      "dgx-h100", "-g",
    "64",      "--plan",   "tp=8,pp=1,micro_batch=1,global_batch=64,recompute=none,zero=0"};

TEST_CASE("explain finds the nearest plan that fits", "[cli]") {
  const auto run = RunParaplan(kTooBig);
  INFO(run.err);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("fits: NO"));
  CHECK_THAT(run.out, Catch::Contains("nearest plan that fits ("));
  CHECK_THAT(run.out, !Catch::Contains("a larger micro_batch"));
  // The plan it names re-runs and fits.
  const std::string marker = "--plan \"";
  const size_t at = run.out.find("nearest plan that fits");
  const size_t begin = run.out.find(marker, at) + marker.size();
  const std::string plan = run.out.substr(begin, run.out.find('"', begin) - begin);
  const auto check = RunParaplan({"simulate", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64",
                                  "--plan", plan, "--format", "json"});
  INFO(plan);
  REQUIRE(check.code == 0);
  CHECK_THAT(check.out, Catch::Contains("\"fits\": true"));
}

TEST_CASE("explain --format json gives advice as a list", "[cli]") {
  std::vector<std::string> args = kTooBig;
  args.insert(args.end(), {"--format", "json"});
  const auto run = RunParaplan(args);
  REQUIRE(run.code == 0);
  CHECK_THAT(run.out, Catch::Contains("\"advice_items\""));
  CHECK_THAT(run.out, Catch::Contains("\"kind\": \"memory\""));
  CHECK_THAT(run.out, Catch::Contains("\"kind\": \"nearest_fit\""));
  CHECK_THAT(run.out, Catch::Contains("\"found\": true"));
  CHECK_THAT(run.out, Catch::Contains("\"changes\""));
}

}  // namespace
}  // namespace paraplan
