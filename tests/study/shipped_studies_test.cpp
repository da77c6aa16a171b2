// Every shipped study (plans/*.yaml) runs, writes its three files and has points with a result.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "study/study_table.h"

using namespace paraplan;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> ShippedStudies() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(fs::path(PARAPLAN_DATA_DIR) / "plans")) {
    if (entry.path().extension() == ".yaml") files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

TEST_CASE("shipped studies run and chart", "[study][plans]") {
  const std::vector<std::string> files = ShippedStudies();
  REQUIRE(files.size() >= 12);
  const fs::path out = fs::temp_directory_path() / "paraplan-shipped-studies";
  fs::remove_all(out);
  for (const std::string& file : files) {
    const std::string dir = (out / fs::path(file).stem()).string();
    const char* argv[] = {"paraplan", "study", file.c_str(), "-o", dir.c_str(), "--quiet"};
    std::ostringstream o, e;
    INFO(file);
    REQUIRE(RunCli(6, argv, o, e) == 0);
    INFO(e.str());
    const std::string csv = ReadTextFile(dir + "/results.csv");
    CHECK(csv.find(",ok,") != std::string::npos);
    CHECK(fs::file_size(dir + "/chart.svg") > 1000);
    CHECK(fs::exists(dir + "/results.json"));
    if (fs::path(file).stem() == "11-goodput") {
      // Its chart is goodput: every point has one (the study gives tokens:).
      const std::string json = ReadTextFile(dir + "/results.json");
      CHECK(json.find("\"goodput\": null") == std::string::npos);
      CHECK(json.find("\"wall_days\": null") == std::string::npos);
      CHECK(json.find("\"metric\": \"goodput\"") != std::string::npos);
      CHECK(csv.find(",infeasible,") == std::string::npos);
    }
  }
  fs::remove_all(out);
}
