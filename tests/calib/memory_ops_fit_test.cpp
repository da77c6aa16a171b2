// The element-wise op rows of the harness's `ops` mode: read, fitted into the profile's
// memory_ops, written and read back, predicted by `calibrate check`; on the synthetic rows of
// tests/data/calib/synthetic_ops.csv (known bandwidths, not measured).
#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "calib/fit_summary.h"
#include "calib/profile_check.h"
#include "calib/profile_fit.h"
#include "calib/raw_csv.h"
#include "config/efficiency_loader.h"
#include "config/profile_io.h"
#include "config/resolve.h"
#include "core/error.h"
#include "hardware/memory_ops.h"

namespace paraplan {
namespace {

const std::string kFitRoot = PARAPLAN_SOURCE_DIR;
const std::string kOpsCsv = kFitRoot + "/tests/data/calib/synthetic_ops.csv";

// The bandwidths the synthetic rows were generated from (tests/data/calib/README.md).
double SyntheticGBps(const std::string& op) {
  static const std::map<std::string, double> kGBps = {
      {"rmsnorm_fwd", 2800},       {"rmsnorm_bwd", 2600},  {"layernorm_fwd", 2700},
      {"rope_fwd", 2500},          {"swiglu_fwd", 2900},   {"swiglu_bwd", 2850},
      {"gelu_fwd", 2750},          {"residual_add", 2950}, {"cross_entropy_fwd", 3300},
      {"cross_entropy_bwd", 2900}, {"adam_step", 2950},    {"grad_norm", 3100}};
  return kGBps.at(op);
}

const std::string kRawHeader = "kind,op,dtype,m,n,k,bytes,ranks,tier,time_us\n";

TEST_CASE("the ops mode's rows parse with the cost model's bytes", "[calib]") {
  const std::vector<RawRow> rows = ReadRawCsv(kOpsCsv);
  REQUIRE(rows.size() == 39);
  int op_rows = 0;
  for (const auto& row : rows) {
    CHECK(row.kind == "memory");
    const MemoryOpSpec* spec = FindMemoryOp(row.op);
    if (spec == nullptr) {
      CHECK(row.op == "copy");
      continue;
    }
    ++op_rows;
    CHECK(row.dtype == spec->dtype);
    CHECK(static_cast<double>(row.bytes) ==
          spec->bytes_per_element * static_cast<double>(row.m) * static_cast<double>(row.n));
  }
  CHECK(op_rows == 36);  // three sizes of each of the twelve ops
}

TEST_CASE("calibrate fit gives each op the bandwidth of its large rows", "[calib]") {
  const ProfileFitResult fit = FitProfile(ReadRawCsv(kOpsCsv));
  CHECK(fit.profile.memory_bandwidth_GBps == Approx(3000).epsilon(1e-6));
  REQUIRE(fit.profile.memory_ops.size() == kMemoryOps.size());
  REQUIRE(fit.memory_ops.size() == kMemoryOps.size());
  for (const auto& report : fit.memory_ops) {
    INFO(report.op);
    // The smallest row (1/16 of the largest, at half the rate) is left out of the median.
    CHECK(report.rows == 3);
    CHECK(report.used == 2);
    CHECK(report.bandwidth_GBps == Approx(SyntheticGBps(report.op)).epsilon(1e-6));
    CHECK(fit.profile.memory_ops.at(report.op) == report.bandwidth_GBps);
    CHECK(report.copy_fraction == Approx(SyntheticGBps(report.op) / 3000).epsilon(1e-6));
  }
  CHECK(fit.warnings.empty());
  const std::string summary = FitSummaryTable(fit);
  CHECK(summary.find("memory op") != std::string::npos);
  CHECK(summary.find("cross_entropy_fwd") != std::string::npos);
  CHECK(summary.find("1.100") != std::string::npos);  // 3300 / 3000
  CHECK(FitSummaryJson(fit).Dump().find("\"memory_ops\"") != std::string::npos);
}

TEST_CASE("calibrate fit rejects unknown ops and warns about other byte counts", "[calib]") {
  CHECK_THROWS_WITH(
      FitProfile(ParseRawCsv(kRawHeader + "memory,softmax_fwd,bf16,8,8,0,256,1,,1\n", "ops.csv")),
      Catch::Contains("ops.csv:2") && Catch::Contains("unknown memory op") &&
          Catch::Contains("rmsnorm_fwd"));
  CHECK_THROWS_WITH(
      FitProfile(ParseRawCsv(kRawHeader + "memory,rmsnorm_fwd,bf16,0,8,0,256,1,,1\n", "ops.csv")),
      Catch::Contains("m, n >= 1"));
  // 4 B x 8 x 8 = 256; a row written with 300 is fitted as written, with one warning.
  const ProfileFitResult fit = FitProfile(ParseRawCsv(
      kRawHeader +
          "memory,rmsnorm_fwd,bf16,8,8,0,300,1,,1\nmemory,rmsnorm_fwd,bf16,8,8,0,300,1,,1\n",
      "ops.csv"));
  REQUIRE(fit.warnings.size() == 1);
  CHECK(fit.warnings[0].find("ops.csv:2: rmsnorm_fwd bytes 300") != std::string::npos);
  CHECK(fit.profile.memory_ops.at("rmsnorm_fwd") == Approx(0.3));
  // No copy rows: no copy bandwidth, and no fraction of it.
  CHECK(fit.profile.memory_bandwidth_GBps == 0);
  CHECK(fit.memory_ops.at(0).copy_fraction == 0);
}

TEST_CASE("memory_ops round-trips through the profile YAML and stays optional", "[calib]") {
  const ProfileFitResult fit = FitProfile(ReadRawCsv(kOpsCsv));
  const std::string yaml = ProfileToYaml(fit.profile);
  CHECK(yaml.find("memory_ops:\n  adam_step: 2950\n") != std::string::npos);
  const auto back = ParseCalibrationProfile(yaml, "p.yaml");
  REQUIRE(back->memory_ops.size() == fit.profile.memory_ops.size());
  for (const auto& [op, GBps] : fit.profile.memory_ops) {
    CHECK(back->memory_ops.at(op) == Approx(GBps).epsilon(1e-5));  // 6 significant digits
  }
  CHECK(ProfileToYaml(*back) == yaml);
  // A profile from before the key: valid, and written without it.
  const auto old = ParseCalibrationProfile("memory_bandwidth_GBps: 4000\n", "old.yaml");
  CHECK(old->memory_ops.empty());
  CHECK(ProfileToYaml(*old).find("memory_ops") == std::string::npos);
  CHECK_THROWS_WITH(ParseCalibrationProfile("memory_ops: {softmax: 100}\n", "bad.yaml"),
                    Catch::Contains("bad.yaml:1") && Catch::Contains("memory_ops.softmax") &&
                        Catch::Contains("unknown op"));
  CHECK_THROWS_WITH(ParseCalibrationProfile("memory_ops: {grad_norm: -1}\n", "bad.yaml"),
                    Catch::Contains("memory_ops.grad_norm") && Catch::Contains("must be > 0"));
  CHECK_THROWS_WITH(ParseCalibrationProfile("memory_ops: [1]\n", "bad.yaml"),
                    Catch::Contains("must be a mapping"));
}

TEST_CASE("calibrate check predicts the op rows at the copy bandwidth", "[calib]") {
  Cluster cluster = LoadCluster(kFitRoot + "/hardware/dgx-h200-calibrated.yaml");
  ApplyDefaultEfficiency(cluster);
  const std::vector<RawRow> rows = ReadRawCsv(kOpsCsv);
  cluster.profile = std::make_shared<const CalibrationProfile>(FitProfile(rows).profile);
  const ProfileCheck check = CheckProfile(cluster, rows);
  REQUIRE(check.rows.size() == rows.size());
  CHECK(check.skipped == 0);
  for (const auto& c : check.rows) {
    INFO(c.row.op << " " << c.row.bytes);
    // The cost model's bytes at the fitted copy bandwidth (3000 GB/s): the per-op bandwidths
    // are reported, not used.
    CHECK(c.profile_us == Approx(static_cast<double>(c.row.bytes) / 3000e3).epsilon(1e-9));
    CHECK(c.default_us > 0);
  }
  const std::string table = ProfileCheckTable(check);
  CHECK(table.find("memory rmsnorm_fwd") != std::string::npos);
  CHECK(table.find("memory bf16") != std::string::npos);  // the copies
  CHECK(table.find("at the copy bandwidth") != std::string::npos);
  const std::string json = ProfileCheckJson(check).Dump();
  CHECK(json.find("\"kind\": \"memory adam_step\"") != std::string::npos);
}

}  // namespace
}  // namespace paraplan
