// End-to-end: `paraplan hardware show` in-process through RunCli (tests/cli/cli_runner.h).
#include <catch2/catch.hpp>
#include <sstream>
#include <vector>

#include "cli/cli_runner.h"
#include "config_test_util.h"

namespace paraplan {
namespace {

using Catch::Matchers::Contains;

TEST_CASE("hardware show prints the table and JSON", "[config][cli]") {
  const testing::CliOutput table = testing::RunParaplan({"hardware", "show", "dgx-h100"});
  CHECK(table.code == 0);
  CHECK_THAT(table.out, Contains("H100-SXM5-80GB"));
  CHECK_THAT(table.out, Contains("scaleout"));
  CHECK_THAT(table.out, Contains("GB/s"));
  const testing::CliOutput json =
      testing::RunParaplan({"hardware", "show", "gb200-nvl72", "--format", "json", "--set",
                            "cluster.network.scaleout.bandwidth_GBps=12.5"});
  CHECK(json.code == 0);
  CHECK_THAT(json.out, Contains("\"span\": 72"));
  CHECK_THAT(json.out, Contains("\"bandwidth_GBps\": 12.5"));
  CHECK_THAT(json.out, Contains("\"peak_tflops\""));
  CHECK_THAT(json.out, Contains("\"profile\": null"));
  CHECK_THAT(json.out, Contains("\"entry\": \"GB200\""));  // fitted on its published runs
  const testing::CliOutput b300 =
      testing::RunParaplan({"hardware", "show", "dgx-b300", "--format", "json"});
  CHECK(b300.code == 0);
  CHECK_THAT(b300.out, Contains("\"entry\": \"transferred from H100\""));  // nobody fitted
}

TEST_CASE("hardware show says where each efficiency comes from", "[config][cli]") {
  const testing::CliOutput fitted = testing::RunParaplan({"hardware", "show", "dgx-h100"});
  CHECK_THAT(fitted.out, Contains("efficiency defaults: H100"));
  CHECK_THAT(fitted.out, Contains("entry 'H100'"));
  const testing::CliOutput b300 = testing::RunParaplan({"hardware", "show", "dgx-b300"});
  REQUIRE(b300.code == 0);
  CHECK_THAT(b300.out, Contains("efficiency defaults: transferred from H100"));
  CHECK_THAT(b300.out, Contains("per SM and clock"));
  CHECK_THAT(b300.out, Contains("160 SMs / 132 SMs"));
  const testing::CliOutput set =
      testing::RunParaplan({"hardware", "show", "dgx-b300", "--set", "cluster.gpu.sm_count=148"});
  CHECK_THAT(set.out, Contains("148 SMs / 132 SMs"));
}

TEST_CASE("hardware show prints each measured ceiling with its source", "[config][cli]") {
  // GB200's file states cuDNN's attention rates against H200's on the same release.
  const testing::CliOutput gb200 = testing::RunParaplan({"hardware", "show", "gb200-nvl72"});
  REQUIRE(gb200.code == 0);
  CHECK_THAT(gb200.out, Contains("measured kernel ceilings"));
  CHECK_THAT(gb200.out, Contains("attention_fwd       0.687"));
  CHECK_THAT(gb200.out, Contains("cuDNN 9.19.1"));
  CHECK_THAT(gb200.out, Contains("1720 TFLOP/s of 2500 TFLOP/s against Hopper's 688"));
  const testing::CliOutput json =
      testing::RunParaplan({"hardware", "show", "gb200-nvl72", "--format", "json"});
  CHECK_THAT(json.out, Contains("\"measured\""));
  CHECK_THAT(json.out, Contains("\"software\": \"cuDNN 9.19.1"));
  CHECK_THAT(json.out, Contains("\"hopper_rate\": 688"));
  // GB300 nobody fitted: its transferred attention names the measurement it came from.
  const testing::CliOutput gb300 = testing::RunParaplan({"hardware", "show", "gb300-nvl72"});
  REQUIRE(gb300.code == 0);
  CHECK_THAT(gb300.out, Contains("B300-GB300's measured 0.80"));
  // A file with no measured rates prints no such section.
  CHECK_THAT(testing::RunParaplan({"hardware", "show", "dgx-h100"}).out,
             !Contains("measured kernel ceilings"));
}

TEST_CASE("hardware show: bad input exits 2 with the location", "[config][cli]") {
  const std::string bad = testing::WriteScratch(
      "cli/bad.yaml",
      "name: bad\ngpu:\n  name: G\n  memory_GiB: -80\n  memory_bandwidth_GBps: 1\n"
      "  peak_tflops: {bf16: 1}\nnetwork: [{name: a, span: 8, bandwidth_GBps: 1, latency_us: "
      "1}]\n");
  const testing::CliOutput result = testing::RunParaplan({"hardware", "show", bad.c_str()});
  CHECK(result.code == 2);
  CHECK_THAT(result.err, Contains(bad + ":4:15: gpu.memory_GiB: must be > 0, got -80"));
  CHECK(testing::RunParaplan({"hardware", "show", "dgx-h999"}).code == 2);
  CHECK(testing::RunParaplan({"hardware", "show", "dgx-h100", "--format", "xml"}).code == 2);
  const testing::CliOutput set =
      testing::RunParaplan({"hardware", "show", "dgx-h100", "--set", "cluster.gpu.memory=1"});
  CHECK(set.code == 2);
  CHECK_THAT(set.err, Contains("unknown key 'memory'"));
  CHECK(testing::RunParaplan({"hardware", "show", "--help"}).code == 0);
  CHECK_THAT(testing::RunParaplan({"hardware", "show", "--help"}).out, Contains("Examples"));
}

}  // namespace
}  // namespace paraplan

namespace paraplan {
namespace {

TEST_CASE("the efficiency defaults file is not offered as a cluster", "[config][cli]") {
  const testing::CliOutput shown = testing::RunParaplan({"hardware", "show", "efficiency"});
  CHECK(shown.code == 2);
  CHECK_THAT(shown.err, Contains("efficiency defaults"));
  CHECK_THAT(shown.err, Contains("dgx-h100"));
  const testing::CliOutput unknown = testing::RunParaplan({"hardware", "show", "dgx-h1000"});
  CHECK(unknown.code == 2);
  CHECK_THAT(unknown.err, Contains("dgx-h200-calibrated"));
  CHECK_THAT(unknown.err, !Contains("efficiency,"));
}

}  // namespace
}  // namespace paraplan
