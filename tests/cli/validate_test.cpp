#include <catch2/catch.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"

using namespace paraplan;

namespace {

struct CliRun {
  int exit_code = 0;
  std::string out;
  std::string err;
};

CliRun Run(std::vector<std::string> args) {
  args.insert(args.begin(), "paraplan");
  std::vector<const char*> argv;
  for (const auto& a : args) argv.push_back(a.c_str());
  std::ostringstream out, err;
  CliRun run;
  run.exit_code = RunCli(static_cast<int>(argv.size()), argv.data(), out, err);
  run.out = out.str();
  run.err = err.str();
  return run;
}

const std::string kData = PARAPLAN_SOURCE_DIR "/tests/validate/data/";

}  // namespace

TEST_CASE("validate prints JSON per run and exits 0 even when some runs fail", "[validate][cli]") {
  const CliRun run = Run({"validate", kData + "small_runs.yaml", "--format", "json"});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  CHECK(run.out.rfind("{\n  \"runs\": [", 0) == 0);
  CHECK(run.out.find("\"id\": \"S01\",\n      \"status\": \"ok\"") != std::string::npos);
  CHECK(run.out.find("\"id\": \"S03\",\n      \"status\": \"error\"") != std::string::npos);
  CHECK(run.out.find("\"summary\": {") != std::string::npos);
}

TEST_CASE("validate table lists every run", "[validate][cli]") {
  const CliRun run = Run({"validate", kData + "small_runs.yaml", "--threads", "2"});
  INFO(run.err);
  CHECK(run.exit_code == 0);
  for (const char* id : {"S01", "S02", "S03", "S04"}) CHECK(run.out.find(id) != std::string::npos);
  CHECK(run.out.find("step time MAPE") != std::string::npos);
}

TEST_CASE("validate rejects a malformed runs file with its location", "[validate][cli]") {
  const CliRun run = Run({"validate", kData + "broken_runs.yaml"});
  CHECK(run.exit_code == 2);
  CHECK(run.err.find("broken_runs.yaml:8") != std::string::npos);
  CHECK(run.err.find("measurd") != std::string::npos);
}

TEST_CASE("validate rejects bad flags", "[validate][cli]") {
  CHECK(Run({"validate", kData + "small_runs.yaml", "--format", "xml"}).exit_code == 2);
  const CliRun two =
      Run({"validate", kData + "small_runs.yaml", kData + "small_runs.yaml", "--format", "json"});
  CHECK(two.exit_code == 2);
  CHECK(two.err.find("exactly one runs file") != std::string::npos);
  CHECK(Run({"validate", kData + "does_not_exist.yaml"}).exit_code == 2);
}
