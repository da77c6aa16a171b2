// Issue 18: a search is total. Odd global batches make some candidates break a schedule rule
// (DualPipe needs an even number of micro-batches; interleaved a multiple of pp): those are
// skipped and counted, and the search still ranks plans.
#include <catch2/catch.hpp>
#include <string>

#include "cli/cli_runner.h"

namespace paraplan {
namespace {

using testing::RunParaplan;

TEST_CASE("plan at odd global batches skips rule breakers and still ranks", "[cli][search]") {
  // llama3-8b on 8 GPUs: global batch 15 gives odd micro-batch counts for every dp.
  const auto small = RunParaplan({"plan", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                  "--global-batch", "15", "--format", "json", "--top", "3"});
  INFO(small.err);
  REQUIRE(small.code == 0);
  CHECK_THAT(small.out, Catch::Contains("\"skipped\""));
  CHECK_THAT(small.out, Catch::Contains("dualpipe needs an even number of micro-batches"));
  for (const char* batch : {"120", "480", "1920"}) {
    const auto run = RunParaplan({"plan", "-m", "llama3-70b", "-c", "dgx-h100", "-g", "64",
                                  "--global-batch", batch, "--top", "2", "--pareto", "2"});
    INFO("global batch " << batch << ": " << run.err);
    REQUIRE(run.code == 0);
    CHECK_THAT(run.out, Catch::Contains("Best plans"));
    CHECK_THAT(run.out, Catch::Contains("candidates that break a rule"));
  }
}

TEST_CASE("plan with no rule-valid plan names the rules that stopped it", "[cli][search]") {
  // pp=4 with dualpipe forced and 15 sequences: every candidate has an odd micro-batch count or
  // fewer than 2*pp.
  const auto run = RunParaplan({"plan", "-m", "llama3-8b", "-c", "dgx-h100", "-g", "8",
                                "--global-batch", "15", "--plan", "pp=4,schedule=dualpipe"});
  CHECK(run.code == 1);
  const std::string all = run.out + run.err;
  CHECK_THAT(all, Catch::Contains("No plan obeys the rules"));
  CHECK_THAT(all, Catch::Contains("The rules that stopped the candidates"));
  CHECK_THAT(all, Catch::Contains("schedule=dualpipe"));
}

}  // namespace
}  // namespace paraplan
