// End-to-end: `paraplan calibrate fit` through RunCli with captured streams.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cli/cli_runner.h"
#include "config/profile_io.h"
#include "temp_dir.h"

namespace paraplan {
namespace {

const std::string kCliData = std::string(PARAPLAN_SOURCE_DIR) + "/tests/data/calib/";

int RunCalibrate(const std::vector<std::string>& args, std::string* out, std::string* err) {
  const testing::CliOutput result = testing::RunParaplan(args);
  *out = result.out;
  *err = result.err;
  return result.code;
}

TEST_CASE("calibrate fit writes a profile and prints the fit table", "[calib][cli]") {
  const testing::TempDir dir("paraplan_calib_cli_case1");
  const std::string profile = (dir.path / "profile.yaml").string();
  // A second file adds a faster memory row: the rows of all files are fitted together.
  const std::string extra = (dir.path / "extra.csv").string();
  std::ofstream(extra) << "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n"
                       << "memory,copy,bf16,0,0,0,4294967296,1,,1400\n";
  std::string out, err;
  const int code = RunCalibrate(
      {"calibrate", "fit", kCliData + "synthetic.csv", extra, "-o", profile}, &out, &err);
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
  const testing::TempDir dir("paraplan_calib_cli_case2");
  std::string out, err;
  REQUIRE(RunCalibrate({"calibrate", "fit", kCliData + "synthetic.csv", "-o",
                        (dir.path / "p.yaml").string(), "--format", "json"},
                       &out, &err) == 0);
  CHECK(out.find("\"collectives\": [") != std::string::npos);
  CHECK(out.find("\"residual_pct\"") != std::string::npos);
  REQUIRE(RunCalibrate({"calibrate", "fit", kCliData + "synthetic.csv"}, &out, &err) == 0);
  CHECK(out.find("collectives:") != std::string::npos);  // the profile YAML itself
  CHECK(err.find("R2") != std::string::npos);            // the summary goes to stderr
}

TEST_CASE("calibrate fit on a broken CSV exits 2 with the line", "[calib][cli]") {
  const testing::TempDir dir("paraplan_calib_cli_case3");
  const std::string bad = (dir.path / "bad.csv").string();
  std::ofstream(bad) << "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n"
                     << "gemm,matmul,bf16,8,8,8,0,1,,12\n"
                     << "gemm,matmul,bf16,8,8,8,0,1,,0\n";
  std::string out, err;
  CHECK(RunCalibrate({"calibrate", "fit", bad, "-o", (dir.path / "p.yaml").string()}, &out, &err) ==
        2);
  CHECK(err.find(bad + ":3: column 'time_us' must be > 0") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir.path / "p.yaml"));
  CHECK(RunCalibrate({"calibrate", "fit", (dir.path / "missing.csv").string()}, &out, &err) == 2);
  CHECK(RunCalibrate({"calibrate", "fit", "--help"}, &out, &err) == 0);
  CHECK(out.find("Examples") != std::string::npos);
}

// nccl-tests' own output, end to end: fit every other size of the published 8-rank sweep, point
// a cluster at the profile, and predict the sizes the fit never saw with `calibrate check` --
// both through the profile (the measured curve between its sizes) and through the built-in NCCL
// model (hardware/nccl_algorithms.h) that a cluster without a profile uses.
TEST_CASE("calibrate fit and check on nccl-tests output predict held-out sizes", "[calib][cli]") {
  const testing::TempDir dir("paraplan_calib_cli_nccl_tests");
  std::ifstream in(kCliData + "all_reduce_perf_8gpu.txt");
  std::ostringstream fit_text, held_text;
  std::string line;
  int data_row = 0;
  while (std::getline(in, line)) {
    const bool data = !line.empty() && line[0] != '#';
    if (!data) {
      fit_text << line << "\n";
      held_text << line << "\n";
      continue;
    }
    (data_row++ % 2 == 0 ? fit_text : held_text) << line << "\n";
  }
  const std::string fit = (dir.path / "all_reduce_perf_fit.txt").string();
  const std::string held = (dir.path / "all_reduce_perf_held.txt").string();
  std::ofstream(fit) << fit_text.str();
  std::ofstream(held) << held_text.str();
  const std::string profile = (dir.path / "p.yaml").string();
  std::string out, err;
  REQUIRE(RunCalibrate({"calibrate", "fit", fit, "-o", profile}, &out, &err) == 0);
  CHECK(out.find("all_reduce  nvlink") != std::string::npos);
  const auto loaded = LoadCalibrationProfile(profile);
  CHECK(loaded->collectives.at("all_reduce").at("nvlink").curve.size() == 6);
  CHECK(loaded->collectives.at("all_reduce").at("nvlink").ranks == 8);

  std::ifstream h100(std::string(PARAPLAN_SOURCE_DIR) + "/hardware/dgx-h100.yaml");
  std::ostringstream cluster_text;
  while (std::getline(h100, line)) {
    if (line.rfind("profile:", 0) == 0) line = "profile: " + profile;
    if (line.rfind("name: dgx-h100", 0) == 0) line = "name: dgx-h100-nccl-tests";
    if (line.find("nvls: true") != std::string::npos) line = "    nvls: false";  // not in the run
    cluster_text << line << "\n";
  }
  const std::string cluster = (dir.path / "cluster.yaml").string();
  std::ofstream(cluster) << cluster_text.str();
  REQUIRE(RunCalibrate({"calibrate", "check", "-c", cluster, held}, &out, &err) == 0);
  INFO(out);
  // Each held-out size's row: ... measured_us profile_us err_% default_us err_%.
  std::istringstream table(out);
  int rows = 0;
  double summary_profile = -1, summary_default = -1;
  while (std::getline(table, line)) {
    std::istringstream fields(line);
    std::vector<std::string> t;
    for (std::string f; fields >> f;) t.push_back(f);
    if (t.size() == 12 && t[0] == "collective") {  // kind op dtype size B xN tier + 5 numbers
      ++rows;
      CHECK(std::abs(std::stod(t[9])) < 10.0);   // the curve, between two measured neighbours
      CHECK(std::abs(std::stod(t[11])) < 35.0);  // NCCL's model, never fitted to this table
    }
    if (t.size() == 5 && t[0] == "collective" && t[1] == "fp32") {
      summary_profile = std::stod(t[3]);
      summary_default = std::stod(t[4]);
    }
  }
  CHECK(rows == 5);
  CHECK(summary_profile >= 0);
  CHECK(summary_profile < 5.0);
  CHECK(summary_default < 25.0);
}

}  // namespace
}  // namespace paraplan
