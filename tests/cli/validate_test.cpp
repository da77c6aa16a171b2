#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_runner.h"

using namespace paraplan;

namespace {

const std::string kData = PARAPLAN_SOURCE_DIR "/tests/validate/data/";

}  // namespace

TEST_CASE("validate prints JSON per run and exits 0 even when some runs fail", "[validate][cli]") {
  const testing::CliOutput run =
      testing::RunParaplan({"validate", kData + "small_runs.yaml", "--format", "json"});
  INFO(run.err);
  CHECK(run.code == 0);
  CHECK(run.out.rfind("{\n  \"runs\": [", 0) == 0);
  CHECK(run.out.find("\"id\": \"S01\",\n      \"status\": \"ok\"") != std::string::npos);
  CHECK(run.out.find("\"id\": \"S03\",\n      \"status\": \"error\"") != std::string::npos);
  CHECK(run.out.find("\"summary\": {") != std::string::npos);
}

TEST_CASE("validate table lists every run", "[validate][cli]") {
  const testing::CliOutput run =
      testing::RunParaplan({"validate", kData + "small_runs.yaml", "--threads", "2"});
  INFO(run.err);
  CHECK(run.code == 0);
  for (const char* id : {"S01", "S02", "S03", "S04"}) CHECK(run.out.find(id) != std::string::npos);
  CHECK(run.out.find("step time MAPE") != std::string::npos);
}

TEST_CASE("validate rejects a malformed runs file with its location", "[validate][cli]") {
  const testing::CliOutput run = testing::RunParaplan({"validate", kData + "broken_runs.yaml"});
  CHECK(run.code == 2);
  CHECK(run.err.find("broken_runs.yaml:8") != std::string::npos);
  CHECK(run.err.find("measurd") != std::string::npos);
}

TEST_CASE("validate rejects bad flags", "[validate][cli]") {
  CHECK(testing::RunParaplan({"validate", kData + "small_runs.yaml", "--format", "xml"}).code == 2);
  const testing::CliOutput two = testing::RunParaplan(
      {"validate", kData + "small_runs.yaml", kData + "small_runs.yaml", "--format", "json"});
  CHECK(two.code == 2);
  CHECK(two.err.find("exactly one runs file") != std::string::npos);
  CHECK(testing::RunParaplan({"validate", kData + "does_not_exist.yaml"}).code == 2);
}
