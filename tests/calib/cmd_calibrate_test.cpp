// End-to-end: `paraplan calibrate fit` through RunCli with captured streams.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_runner.h"
#include "config/profile_io.h"

namespace paraplan {
namespace {

const std::string kDataDir = std::string(PARAPLAN_SOURCE_DIR) + "/tests/data/calib/";

int Run(const std::vector<std::string>& args, std::string* out, std::string* err) {
  const testing::CliOutput result = testing::RunParaplan(args);
  *out = result.out;
  *err = result.err;
  return result.code;
}

struct TempDir {
  std::filesystem::path path;
  explicit TempDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() / ("paraplan_calib_cli_" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

TEST_CASE("calibrate fit writes a profile and prints the fit table", "[calib][cli]") {
  TempDir dir("case1");
  const std::string profile = (dir.path / "profile.yaml").string();
  // A second file adds a faster memory row: the rows of all files are fitted together.
  const std::string extra = (dir.path / "extra.csv").string();
  std::ofstream(extra) << "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n"
                       << "memory,copy,bf16,0,0,0,4294967296,1,,1400\n";
  std::string out, err;
  const int code =
      Run({"calibrate", "fit", kDataDir + "synthetic.csv", extra, "-o", profile}, &out, &err);
  INFO(err);
  REQUIRE(code == 0);
  CHECK(out.find("collective") != std::string::npos);
  CHECK(out.find("R2") != std::string::npos);
  CHECK(out.find("all_gather  scaleout") != std::string::npos);
  CHECK(out.find("wrote " + profile) != std::string::npos);
  CHECK(err.find("naive") != std::string::npos);  // the warning
  const auto loaded = LoadCalibrationProfile(profile);
  CHECK(loaded->collectives.at("all_gather").at("scaleout").bandwidth_GBps ==
        Approx(45.0).epsilon(1e-4));
  CHECK(loaded->gemm.at("bf16").size() == 5);
  // Sizes >= 1 GiB now: 3000, 3010 and 4294967296 B / 1400 µs = 3067.8 GB/s; the median is 3010.
  CHECK(loaded->memory_bandwidth_GBps == Approx(3010.0).epsilon(1e-5));
}

TEST_CASE("calibrate fit --format json and stdout output", "[calib][cli]") {
  TempDir dir("case2");
  std::string out, err;
  REQUIRE(Run({"calibrate", "fit", kDataDir + "synthetic.csv", "-o", (dir.path / "p.yaml").string(),
               "--format", "json"},
              &out, &err) == 0);
  CHECK(out.find("\"collectives\": [") != std::string::npos);
  CHECK(out.find("\"residual_pct\"") != std::string::npos);
  REQUIRE(Run({"calibrate", "fit", kDataDir + "synthetic.csv"}, &out, &err) == 0);
  CHECK(out.find("collectives:") != std::string::npos);  // the profile YAML itself
  CHECK(err.find("R2") != std::string::npos);            // the summary goes to stderr
}

TEST_CASE("calibrate fit on a broken CSV exits 2 with the line", "[calib][cli]") {
  TempDir dir("case3");
  const std::string bad = (dir.path / "bad.csv").string();
  std::ofstream(bad) << "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n"
                     << "gemm,matmul,bf16,8,8,8,0,1,,12\n"
                     << "gemm,matmul,bf16,8,8,8,0,1,,0\n";
  std::string out, err;
  CHECK(Run({"calibrate", "fit", bad, "-o", (dir.path / "p.yaml").string()}, &out, &err) == 2);
  CHECK(err.find(bad + ":3: column 'time_us' must be > 0") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path / "p.yaml"));
  CHECK(Run({"calibrate", "fit", (dir.path / "missing.csv").string()}, &out, &err) == 2);
  CHECK(Run({"calibrate", "fit", "--help"}, &out, &err) == 0);
  CHECK(out.find("Examples") != std::string::npos);
}

}  // namespace
}  // namespace paraplan
